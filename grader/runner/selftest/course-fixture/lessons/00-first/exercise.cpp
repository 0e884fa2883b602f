#define STEPWISE_TODO(step)
void exercise() {
  STEPWISE_TODO(2);
}
