// Lint fixture (never compiled): both steps are marked; the README lacks a hint of step 2.
void first() {
  // TODO(step 1): write me
  STEPWISE_TODO(1);
}
void second() {
  // TODO(step 2): write me
  STEPWISE_TODO(2);
}
