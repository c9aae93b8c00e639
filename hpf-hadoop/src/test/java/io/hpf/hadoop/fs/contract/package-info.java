/**
 * Hadoop's own file-system contract tests, run on {@code hpf://}: the ones a read-only file system
 * without empty directories can pass as they are, open and seek (45 tests). The getFileStatus,
 * content-summary and delete contracts are not run: they create empty directories (an archive has
 * none: a directory is the prefix of some entry's name) or list the file system's root (which names
 * no archive), and delete is a write.
 */
package io.hpf.hadoop.fs.contract;
