package io.hpf.server.ring;

/**
 * One server of a ring.
 *
 * @param id a stable name: placement hashes it, so renaming a server moves its archives
 * @param address where it listens, {@code host:port}
 */
public record RingMember(String id, String address) {
  public RingMember {
    if (id.isEmpty() || id.chars().anyMatch(Character::isWhitespace)) {
      throw new IllegalArgumentException("a server id is one word, not '" + id + "'");
    }
    int colon = address.lastIndexOf(':');
    if (colon <= 0 || colon == address.length() - 1) {
      throw new IllegalArgumentException(
          "server '" + id + "': address '" + address + "' is not host:port");
    }
    try {
      int port = Integer.parseInt(address.substring(colon + 1));
      if (port < 1 || port > 65535) {
        throw new NumberFormatException();
      }
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "server '" + id + "': address '" + address + "' has no valid port", e);
    }
  }

  /** The base URI of the server: {@code http://host:port}. */
  public String baseUri() {
    return "http://" + address;
  }
}
