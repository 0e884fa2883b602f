void kernel() {
  STEPWISE_TODO(2);
}
