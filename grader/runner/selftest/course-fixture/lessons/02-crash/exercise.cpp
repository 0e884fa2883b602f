void exercise() {}
