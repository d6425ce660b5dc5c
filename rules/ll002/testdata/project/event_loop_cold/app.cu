// A GLUT program that launches nothing before its loop: the first frame
// the display callback times loads the kernel.
#include <GL/glut.h>
#include <chrono>
#include <cstdio>

__global__ void shade(uchar4 *px, int w, int h) {}

uchar4 *pixels;
int width = 512, height = 512;

void display() {
  auto t0 = std::chrono::high_resolution_clock::now();
  shade<<<dim3(width / 16, height / 16), dim3(16, 16)>>>(pixels, width, height);  // want LL002 "shade"
  cudaDeviceSynchronize();
  auto t1 = std::chrono::high_resolution_clock::now();
  printf("%.1f fps\n", 1.0 / std::chrono::duration<double>(t1 - t0).count());
  glutSwapBuffers();
}

void idle() { glutPostRedisplay(); }

int main(int argc, char **argv) {
  glutInit(&argc, argv);
  glutCreateWindow("shade");
  glutDisplayFunc(display);
  glutIdleFunc(idle);
  glutMainLoop();
  return 0;
}
