// The CPU reference implementation.
typedef struct { float w[16]; } Model;

void model_step(Model *m) {
  for (int i = 0; i < 16; i++) m->w[i] *= 0.5f;
}
