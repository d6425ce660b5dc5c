// An inference library's layer interface: callers hold a Layer and never
// name the implementation that runs on the GPU.
#pragma once

class Layer {
 public:
  virtual ~Layer() {}
  virtual void forward(float *x, int n) = 0;
};

class ScaleLayer : public Layer {
 public:
  explicit ScaleLayer(float s) : s_(s) {}
  void forward(float *x, int n) override;

 private:
  float s_;
};

// Two implementations of one interface, each with its own kernel: which
// runs depends on what the caller built, and either loads a kernel.
class Norm {
 public:
  virtual ~Norm() {}
  virtual void apply(float *x, int n) = 0;
};

class L1Norm : public Norm {
 public:
  void apply(float *x, int n) override;
};

class L2Norm : public Norm {
 public:
  void apply(float *x, int n) override;
};

// A sink with a host implementation beside the GPU one: a call through it
// may load nothing.
class Sink {
 public:
  virtual ~Sink() {}
  virtual void write(float *x, int n) = 0;
};

class DeviceSink : public Sink {
 public:
  void write(float *x, int n) override;
};

class HostSink : public Sink {
 public:
  void write(float *x, int n) override;
};

Layer *make_scale_layer(float s);
