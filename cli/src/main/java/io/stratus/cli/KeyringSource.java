package io.stratus.cli;

import io.stratus.cloudapi.crypto.Encryption;
import io.stratus.core.Keyring;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The keyring of client-side encryption as the command line gets it: key material from a file
 * ({@code --keyring-file}) and/or an environment variable ({@code --keyring-env}), the active keys
 * by id ({@code --default-key}, {@code --collection-key}).
 *
 * <p>Why not from the command line: arguments show up in process listings and shell histories.
 * Entries are {@code KEY_ID=BASE64}; a file has one per line and '#' comments, a variable separates
 * them with newlines, commas or spaces. No message shows an entry's text — only where it is (file
 * or variable, entry number) and, once it is a valid key id, the id. Decoded material is wiped
 * once the keyring has copied it.
 */
final class KeyringSource {
  private KeyringSource() {}

  /**
   * The keyring the options describe, or empty when they name no key source.
   *
   * @param env the environment (see {@link CloudOpener#environment})
   * @param err where a warning about a keyring file others may read goes
   * @throws IllegalArgumentException when a source cannot be read or holds a malformed entry, or
   *     active keys are chosen without a key source
   */
  static Optional<Keyring> load(ConnectionOptions o, UnaryOperator<String> env, PrintWriter err) {
    if (o.keyringFile == null && o.keyringEnv == null) {
      if (o.defaultKey != null || !o.collectionKeys.isEmpty()) {
        throw new IllegalArgumentException(
            "--default-key and --collection-key need keys: give --keyring-file or --keyring-env");
      }
      return Optional.empty();
    }
    Keyring.Builder b = Keyring.builder();
    int keys = 0;
    String onlyId = null;
    if (o.keyringFile != null) {
      warnIfOthersMayRead(o.keyringFile, err);
      String text;
      try {
        text = Files.readString(o.keyringFile, StandardCharsets.UTF_8);
      } catch (IOException | RuntimeException e) {
        throw new IllegalArgumentException(
            "cannot read the keyring file "
                + o.keyringFile
                + " ("
                + e.getClass().getSimpleName()
                + ")");
      }
      StringBuilder entries = new StringBuilder();
      for (String line : text.split("\\R")) {
        int hash = line.indexOf('#');
        entries.append(hash < 0 ? line : line.substring(0, hash)).append('\n');
      }
      for (String id : add(b, entries.toString(), "the keyring file " + o.keyringFile)) {
        keys++;
        onlyId = id;
      }
    }
    if (o.keyringEnv != null) {
      String value = env.apply(o.keyringEnv);
      if (value == null || value.isBlank()) {
        throw new IllegalArgumentException(
            "the environment variable " + o.keyringEnv + " (--keyring-env) is not set");
      }
      for (String id : add(b, value, "the environment variable " + o.keyringEnv)) {
        keys++;
        onlyId = id;
      }
    }
    if (keys == 0) {
      throw new IllegalArgumentException("the keyring sources hold no key");
    }
    if (o.defaultKey == null && keys > 1) {
      throw new IllegalArgumentException(
          "the keyring has " + keys + " keys: say which is active with --default-key KEY_ID");
    }
    b.defaultKey(o.defaultKey != null ? o.defaultKey : onlyId);
    for (Map.Entry<String, String> e : o.collectionKeys.entrySet()) {
      b.collectionKey(e.getKey(), e.getValue());
    }
    return Optional.of(b.build());
  }

  /** Adds the entries of {@code text} to {@code b}; returns their key ids in order. */
  private static List<String> add(Keyring.Builder b, String text, String where) {
    List<String> ids = new ArrayList<>();
    int n = 0;
    for (String entry : text.split("[\\s,]+")) {
      if (entry.isEmpty()) {
        continue;
      }
      n++;
      int eq = entry.indexOf('=');
      String id = eq < 0 ? "" : entry.substring(0, eq);
      if (eq <= 0 || !Encryption.isValidKeyId(id)) {
        throw new IllegalArgumentException(
            where
                + ", entry "
                + n
                + ": expected KEY_ID=BASE64 with a key id of letters, digits, '.', '_' or '-'");
      }
      byte[] material;
      try {
        material = Base64.getDecoder().decode(entry.substring(eq + 1));
      } catch (IllegalArgumentException e) {
        // The decoder's message quotes the offending character: not repeated here.
        throw new IllegalArgumentException(
            where + ", key " + id + ": the key material is not base64");
      }
      try {
        b.key(id, material);
      } finally {
        Arrays.fill(material, (byte) 0);
      }
      ids.add(id);
    }
    return ids;
  }

  private static void warnIfOthersMayRead(Path file, PrintWriter err) {
    Set<PosixFilePermission> open =
        EnumSet.of(PosixFilePermission.GROUP_READ, PosixFilePermission.OTHERS_READ);
    try {
      Set<PosixFilePermission> perms = Files.getPosixFilePermissions(file);
      perms.retainAll(open);
      if (!perms.isEmpty()) {
        err.println(
            "stratus: warning: the keyring file "
                + file
                + " is readable by other users (chmod 600 it)");
      }
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      // No POSIX permissions to check (or no access to them): reading will tell.
    }
  }
}
