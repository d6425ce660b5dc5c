// GLUT runs the callbacks it is given only inside glutMainLoop: a kernel
// launched on the way to the loop is loaded when the first frame is timed.
#include <GL/freeglut.h>
#include <chrono>
#include <cstdio>

void step_wave(float4 *pos, float t);
void step_ripple(float4 *pos, float t);

float4 *positions;
float sim_t;

void draw() {
  auto t0 = std::chrono::steady_clock::now();
  step_wave(positions, sim_t);  // ok: run() launched wave before entering the loop that calls draw
  step_ripple(positions, sim_t);  // want LL002 "ripple"
  cudaDeviceSynchronize();
  auto t1 = std::chrono::steady_clock::now();
  printf("frame: %f s\n", std::chrono::duration<double>(t1 - t0).count());
  glutSwapBuffers();
}

void on_key(unsigned char key, int, int) {
  if (key == 'r') {
    sim_t = 0;
  }
}

void run(int argc, char **argv) {
  glutInit(&argc, argv);
  glutDisplayFunc(draw);
  glutKeyboardFunc(on_key);
  step_wave(positions, sim_t);  // the first frame, computed before the window shows
  glutMainLoop();
}

int main(int argc, char **argv) {
  run(argc, argv);
  return 0;
}
