package io.stratus.zookeeper;

import java.nio.charset.StandardCharsets;
import java.security.NoSuchAlgorithmException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.server.auth.DigestAuthenticationProvider;

/**
 * A user and password for ZooKeeper's {@code digest} scheme.
 *
 * <p>A class rather than a record so that no generated method can print the password: {@link
 * #toString()} names the scheme and the user only. The server never sees the password in an ACL,
 * only the identity {@code user:base64(sha1(user:password))}, which is what {@link #fullAccess()}
 * grants.
 */
final class DigestCredentials {
  private final String user;
  private final String password;
  private final Id identity;

  DigestCredentials(String user, String password) {
    this.user = user;
    this.password = password;
    try {
      this.identity =
          new Id(
              ZooKeeperConfig.DIGEST_SCHEME,
              DigestAuthenticationProvider.generateDigest(user + ":" + password));
    } catch (NoSuchAlgorithmException e) {
      // SHA-1 is one of the algorithms every Java platform must provide.
      throw new IllegalStateException("this Java platform has no SHA-1", e);
    }
  }

  String user() {
    return user;
  }

  /** The bytes Curator sends with {@code authorization("digest", ...)}: {@code user:password}. */
  byte[] authBytes() {
    return (user + ":" + password).getBytes(StandardCharsets.UTF_8);
  }

  /** The digest identity these credentials authenticate as. */
  Id identity() {
    return identity;
  }

  /** Every permission for this identity. */
  ACL fullAccess() {
    return new ACL(ZooDefs.Perms.ALL, identity);
  }

  @Override
  public String toString() {
    return "digest(user=" + user + ", password=****)";
  }
}
