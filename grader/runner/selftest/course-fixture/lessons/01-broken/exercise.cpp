// A student's syntax error: the missing semicolon below.
void exercise() {
  int answer = 42
  return;
}
