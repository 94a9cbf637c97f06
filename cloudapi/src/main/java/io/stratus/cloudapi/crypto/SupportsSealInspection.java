package io.stratus.cloudapi.crypto;

import io.stratus.cloudapi.StorageService;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * The ability of encrypted storage to show which key sealed a stored item and which key a put at
 * its URI would seal with now, so that a tool can find and re-seal what an old key sealed.
 *
 * <p>Why a capability: rotating a key ({@link EncryptionKeys}) leaves everything written before
 * sealed with the old key, and the old key can be retired only when nothing stored needs it any
 * more. Which key sealed an item is in its header, which only the encrypting wrapper parses; a
 * plain {@link #get} opens the item and forgets the header. {@link #getSealed} reads the item once
 * and hands it out sealed: its key id is known without decrypting, and {@link SealedItem#open()}
 * decrypts it only when it is to be rewritten.
 *
 * <p>Every storage {@link Encryption} wraps implements it (with or without conditional puts); a
 * decorator wrapped around the encrypted storage hides it. Callers check with {@code instanceof}
 * (or {@link #of(StorageService)}). Implementations MUST be thread-safe.
 */
public interface SupportsSealInspection extends StorageService {

  /**
   * The item at {@code uri} as stored, not opened: empty when there is none. The read is one
   * storage get, with the consistency of {@link #get}.
   */
  CompletableFuture<Optional<SealedItem>> getSealed(String uri);

  /** The id of the key a put at {@code uri} seals with now. */
  String activeKeyId(String uri);

  /** {@code storage} as storage whose seals can be inspected, or null when it lacks the ability. */
  static @Nullable SupportsSealInspection of(StorageService storage) {
    return storage instanceof SupportsSealInspection ? (SupportsSealInspection) storage : null;
  }
}
