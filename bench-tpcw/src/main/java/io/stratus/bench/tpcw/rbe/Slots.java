package io.stratus.bench.tpcw.rbe;

import io.stratus.bench.tpcw.workload.Interaction;

/**
 * Where a measured interaction's numbers are kept: per interaction, one slot for the completed
 * interactions that wrote and one for those that did not. A failed interaction counts in the slot
 * of what its interaction may do ({@link Interaction#isUpdate()}), since it is not known whether
 * it would have written.
 *
 * <p>Why two slots: the papers split their figures into read and update interactions, and an
 * interaction that may write often does not (a Shopping Cart that only shows the cart, a Customer
 * Registration of a returning customer). The report's "update" group is the slots that wrote, its
 * "read" group the others, so update figures are not diluted by interactions that wrote nothing.
 */
final class Slots {
  /** Two slots per interaction. */
  static final int COUNT = Interaction.values().length * 2;

  private Slots() {}

  /** The slot of a completed interaction. */
  static int of(Interaction interaction, boolean wrote) {
    return interaction.ordinal() * 2 + (wrote ? 1 : 0);
  }

  /** The slot a failed interaction counts in. */
  static int failed(Interaction interaction) {
    return of(interaction, interaction.isUpdate());
  }

  /** The interaction of a slot. */
  static Interaction interaction(int slot) {
    return Interaction.values()[slot / 2];
  }

  /** Whether a slot holds interactions that wrote. */
  static boolean wrote(int slot) {
    return slot % 2 == 1;
  }
}
