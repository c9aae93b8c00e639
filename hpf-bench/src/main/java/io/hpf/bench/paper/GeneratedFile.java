package io.hpf.bench.paper;

/** One file of a dataset: its relative name ('/'-separated) and content. */
public record GeneratedFile(String name, byte[] content) {}
