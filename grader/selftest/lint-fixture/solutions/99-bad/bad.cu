// Lint fixture (never compiled): a "solution" that still holds a stub.
void first() { STEPWISE_TODO(1); }
