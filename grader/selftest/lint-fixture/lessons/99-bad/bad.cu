// Lint fixture (never compiled): step 1 is marked; step 3 has a stub but no TODO comment.
void first() {
  // TODO(step 1): write me
  STEPWISE_TODO(1);
}
void third() { STEPWISE_TODO(3); }
