/**
 * Checkpoints (paper 000, Algorithm 2 and section 4.4): {@link
 * io.stratus.protocols.checkpoint.Checkpointer} applies one queue's pending updates to its data
 * page or tree under the queue's lock, {@link io.stratus.protocols.checkpoint.CheckpointScheduler}
 * decides when (the writer and reader strategies of section 4.5), {@link
 * io.stratus.protocols.checkpoint.WriteChains} applies numbered records exactly once and in order,
 * {@link io.stratus.protocols.checkpoint.WriterLeases} tells live writers from gone ones, and
 * {@link io.stratus.protocols.checkpoint.DirectPageStore} stages and puts a checkpoint's pages.
 * Internal to the protocols module.
 */
package io.stratus.protocols.checkpoint;
