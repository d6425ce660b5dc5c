// Loops whose first iteration decides a branch: a block under
// `step % every == 0` runs at step 0, before the timed code of that step;
// one under `step > 0` does not.
#include <chrono>
#include <cstdio>

__global__ void embed(float *x, int n) {}
__global__ void attend(float *x, int n) {}
__global__ void grads(float *x, int n) {}
__global__ void apply_update(float *x, int n) {}

void evaluate(float *x, int n) {
  embed<<<n / 128, 128>>>(x, n);
  attend<<<n / 128, 128>>>(x, n);
}

void forward(float *x, int n) {
  embed<<<n / 128, 128>>>(x, n);
  attend<<<n / 128, 128>>>(x, n);
}

void train(float *x, int n, int steps, int eval_every) {
  for (int step = 0; step <= steps; step++) {
    bool last = step == steps;
    if (step % eval_every == 0 || last) {
      evaluate(x, n);  // runs at step 0
    }
    if (last) break;
    auto t0 = std::chrono::steady_clock::now();
    forward(x, n);  // ok: the evaluation at step 0 launched both kernels
    grads<<<n / 128, 128>>>(x, n);  // want LL002 "grads"
    cudaDeviceSynchronize();
    auto t1 = std::chrono::steady_clock::now();
    printf("step %d: %f s\n", step, std::chrono::duration<double>(t1 - t0).count());
  }
}

void train_eval_later(float *x, int n, int steps, int eval_every) {
  for (int step = 0; step < steps; step++) {
    if (step > 0 && step % eval_every == 0) {
      evaluate(x, n);  // not at step 0
    }
    auto t0 = std::chrono::steady_clock::now();
    forward(x, n);  // want LL002 "embed"
    cudaDeviceSynchronize();
    auto t1 = std::chrono::steady_clock::now();
    printf("step %d: %f s\n", step, std::chrono::duration<double>(t1 - t0).count());
  }
}

void train_resumed(float *x, int n, int first, int steps, int eval_every) {
  for (int step = first; step < steps; step++) {
    if (step % eval_every == 0) {
      evaluate(x, n);  // a resumed run may start between evaluations
    }
    auto t0 = std::chrono::steady_clock::now();
    forward(x, n);  // want LL002 "embed"
    cudaDeviceSynchronize();
    auto t1 = std::chrono::steady_clock::now();
    printf("step %d: %f s\n", step, std::chrono::duration<double>(t1 - t0).count());
  }
}

void sweep_from_one(float *x, int n, int sizes) {
  for (int s = 1; s <= sizes; s++) {
    if (!(s % 2)) {
      apply_update<<<1, 1>>>(x, n);  // odd first size: skipped at s = 1
    }
    auto t0 = std::chrono::steady_clock::now();
    apply_update<<<s, 128>>>(x, n);  // want LL002 "apply_update"
    cudaDeviceSynchronize();
    auto t1 = std::chrono::steady_clock::now();
    printf("%d: %f s\n", s, std::chrono::duration<double>(t1 - t0).count());
  }
}

void sweep_else(float *x, int n, int sizes) {
  for (int s = 1; s <= sizes; s++) {
    if (s > 1) {
      printf("size %d\n", s);
    } else {
      apply_update<<<1, 1>>>(x, n);  // the first size takes this branch
    }
    auto t0 = std::chrono::steady_clock::now();
    apply_update<<<s, 128>>>(x, n);  // ok: loaded by the else branch at s = 1
    cudaDeviceSynchronize();
    auto t1 = std::chrono::steady_clock::now();
    printf("%d: %f s\n", s, std::chrono::duration<double>(t1 - t0).count());
  }
}
