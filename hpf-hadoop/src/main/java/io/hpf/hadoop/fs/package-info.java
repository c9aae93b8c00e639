/**
 * The read-only {@code hpf://} Hadoop file system: the entries of archives on any Hadoop file
 * system, seen as a directory tree by every Hadoop tool (FsShell, distcp, Hive, engines), as HAR's
 * {@code har://} does for HAR files. Paths take HAR's form: {@code
 * hpf://<scheme>-<host>:<port>/<dir>/<archive>.hpf/<entry name>}.
 *
 * <p>May import (checked by ArchitectureTest): io.hpf.archive, io.hpf.archive.model, io.hpf.hadoop,
 * io.hpf.store.
 */
package io.hpf.hadoop.fs;
