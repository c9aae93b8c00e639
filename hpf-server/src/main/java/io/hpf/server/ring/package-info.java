/**
 * The consistent-hash ring that places archives on servers, and its balance.
 *
 * <p>May import (checked by ArchitectureTest): io.hpf.archive.
 */
package io.hpf.server.ring;
