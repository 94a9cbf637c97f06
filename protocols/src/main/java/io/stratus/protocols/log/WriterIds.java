package io.stratus.protocols.log;

/**
 * How log records name their writer, in one place: a writer is one lane of one incarnation of a
 * database handle, {@code <clientId>#<nonce>.<lane>}. The commit side makes these ids; the
 * checkpoint side takes them apart to find a record's sibling lanes ({@link LaneDependency}) and
 * whose lease keeps a chain alive. A record of the basic protocol names its client id alone and
 * has no lanes.
 */
public final class WriterIds {
  private WriterIds() {}

  /** The writer id of lane {@code lane} of {@code incarnation} ({@code <clientId>#<nonce>}). */
  public static String of(String incarnation, int lane) {
    return incarnation + "." + lane;
  }

  /** The writer id of lane {@code lane} of the same incarnation as the writer {@code sibling}. */
  public static String sibling(String sibling, int lane) {
    return sibling.substring(0, sibling.lastIndexOf('.') + 1) + lane;
  }

  /** The incarnation part of a writer id; a client id without lanes is its own incarnation. */
  public static String incarnationOf(String writer) {
    int hash = writer.lastIndexOf('#');
    int dot = writer.lastIndexOf('.');
    return dot > hash && hash >= 0 ? writer.substring(0, dot) : writer;
  }
}
