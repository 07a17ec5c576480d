package dev.once.psp;

/** A stored answer to a POST: what a replay sends again, byte for byte. */
record Answer(int status, byte[] body) {}
