package io.stratus.pagemanager;

import java.util.Objects;
import java.util.Optional;

/**
 * One page a {@link PageTransaction} changed or created, as the commit protocols need it.
 *
 * @param page the page as the transaction left it
 * @param baseVersion the storage version of the page the transaction read before it changed it;
 *     empty for a new page (a conditional put then uses "if absent", otherwise "if version
 *     matches")
 * @param isNew whether the page did not exist (in storage, as the pool saw it) when the
 *     transaction first wrote it; true exactly when {@code baseVersion} is empty
 */
public record PageWrite(Page page, Optional<String> baseVersion, boolean isNew) {
  public PageWrite {
    Objects.requireNonNull(page, "page");
    Objects.requireNonNull(baseVersion, "baseVersion");
    if (isNew == baseVersion.isPresent()) {
      throw new IllegalArgumentException(
          "a new page has no base version and a changed page has one: " + page.uri());
    }
  }

  public String uri() {
    return page.uri();
  }
}
