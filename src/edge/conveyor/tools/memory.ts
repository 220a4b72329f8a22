// memory.note and artifact.put (internal): durable notes and artifacts, size-bounded, read back to verify.
import { eq } from "drizzle-orm";
import { z } from "zod";
import { newId } from "../../auth/crypto.ts";
import { artifacts, memoryNotes } from "../../db/schema.ts";
import type { ConveyorTool } from "../tool.ts";

export const NOTE_MAX_CHARS = 4_000;
export const ARTIFACT_MAX_BYTES = 256 * 1024;

const NoteArgs = z.strictObject({
  topic: z.string().trim().min(1).max(100),
  text: z.string().min(1).max(NOTE_MAX_CHARS),
});
type NoteArgs = z.infer<typeof NoteArgs>;

export const memoryNote: ConveyorTool<NoteArgs> = {
  name: "memory.note",
  description: `Keep a durable note (up to ${NOTE_MAX_CHARS} characters) under a topic.`,
  schema: NoteArgs,
  riskClass: () => "WRITE",
  external: false,
  idempotentDownstream: false,
  grantCoversHigh: false,
  summary: (a) => ({
    what: `Remember a note about ${a.topic}`,
    where: "Airlock memory",
    impact: `${a.text.length} characters stored.`,
  }),
  grantScope: (a) => a.topic,
  timeoutMs: () => 5_000,
  async execute(a, ctx) {
    const id = newId("mem");
    await ctx.db.insert(memoryNotes).values({
      id,
      userId: ctx.userId,
      topic: a.topic,
      text: a.text,
      createdAt: ctx.now(),
      proposalId: ctx.proposalId,
    });
    const back = await ctx.db.select({ id: memoryNotes.id }).from(memoryNotes).where(eq(memoryNotes.id, id));
    return {
      status: "executed",
      result: { note_id: id },
      verification: back.length
        ? { outcome: "passed", detail: "read back" }
        : { outcome: "failed", detail: "not found after write" },
    };
  },
};

const ArtifactArgs = z
  .strictObject({
    name: z.string().trim().min(1).max(200),
    content_type: z
      .string()
      .regex(/^[a-z]+\/[a-z0-9.+-]+(; ?charset=[a-z0-9-]+)?$/i)
      .default("text/plain"),
    content: z.string(),
  })
  .refine((a) => new TextEncoder().encode(a.content).byteLength <= ARTIFACT_MAX_BYTES, {
    message: `content is larger than ${ARTIFACT_MAX_BYTES} bytes`,
    path: ["content"],
  });
type ArtifactArgs = z.infer<typeof ArtifactArgs>;

export const artifactPut: ConveyorTool<ArtifactArgs> = {
  name: "artifact.put",
  description: `Store a named text artifact (up to ${ARTIFACT_MAX_BYTES / 1024} KiB).`,
  schema: ArtifactArgs,
  riskClass: () => "WRITE",
  external: false,
  idempotentDownstream: false,
  grantCoversHigh: false,
  summary: (a) => ({
    what: `Store the artifact ${a.name}`,
    where: "Airlock artifacts",
    impact: `${new TextEncoder().encode(a.content).byteLength} bytes of ${a.content_type}.`,
  }),
  grantScope: (a) => a.name,
  timeoutMs: () => 5_000,
  async execute(a, ctx) {
    const id = newId("art");
    const bytes = new TextEncoder().encode(a.content).byteLength;
    await ctx.db.insert(artifacts).values({
      id,
      userId: ctx.userId,
      name: a.name,
      contentType: a.content_type,
      content: a.content,
      bytes,
      createdAt: ctx.now(),
      proposalId: ctx.proposalId,
    });
    const back = await ctx.db.select({ bytes: artifacts.bytes }).from(artifacts).where(eq(artifacts.id, id));
    return {
      status: "executed",
      result: { artifact_id: id, bytes },
      verification:
        back[0]?.bytes === bytes
          ? { outcome: "passed", detail: "read back" }
          : { outcome: "failed", detail: "size mismatch after write" },
    };
  },
};
