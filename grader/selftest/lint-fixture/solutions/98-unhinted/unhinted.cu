// Lint fixture (never compiled): the solution, with no stub left.
void first() {}
void second() {}
