// The hosted runtime's share of the hub (src/edge/runtime): schedules' wakeups join the hub's one alarm,
// and chat replies, job progress and notifications reach the user's open dashboards. Nothing here decides
// a call: a hosted turn's effects go through the conveyor (`UserHub.propose`) like any other proposal.
import type { ServerMessage } from "../../protocol/socket.ts";
import type { Db } from "../db/client.ts";
import { HubScheduler } from "../runtime/scheduler.ts";
import type { AlarmSource } from "./schedule.ts";

/** What the runtime may send to dashboards; anything else (prompts, decisions) is the hub's own to send. */
const RUNTIME_MESSAGES: ReadonlySet<ServerMessage["type"]> = new Set([
  "chat_delta",
  "chat_message",
  "job_updated",
  "notification",
]);

export interface HostedRuntimePorts {
  sql: SqlStorage;
  db: Db;
  env: Env;
  userId: () => string;
  toDashboards: (message: ServerMessage) => void;
  /** Re-arms the hub's one alarm after a schedule's next wakeup changed. */
  arm: () => Promise<void>;
  /** Lets the hub's alarm move on once started runs no longer need their backstop. */
  relax?: () => Promise<void>;
}

export class HostedRuntime implements AlarmSource {
  readonly name = "schedules";
  readonly scheduler: HubScheduler;
  private readonly ports: HostedRuntimePorts;

  constructor(ports: HostedRuntimePorts) {
    this.ports = ports;
    this.scheduler = new HubScheduler({
      sql: ports.sql,
      db: ports.db,
      env: ports.env,
      userId: ports.userId,
      ...(ports.relax ? { relax: ports.relax } : {}),
    });
  }

  static migrate(sql: SqlStorage): void {
    HubScheduler.migrate(sql);
  }

  /** When the alarm must run for the schedules (a lead before a due time: HubScheduler.nextWake). */
  nextWake(): number | null {
    return this.scheduler.nextWake();
  }

  /** The alarm fired: start the jobs of due schedules. */
  async onAlarm(now = Date.now()): Promise<void> {
    await this.scheduler.onAlarm(now);
  }

  /** Only the runtime's own message kinds; false (and nothing sent) for any other. */
  broadcast(message: ServerMessage): boolean {
    if (!RUNTIME_MESSAGES.has(message.type)) return false;
    this.ports.toDashboards(message);
    return true;
  }

  /** A schedule was created or changed: its next wakeup is re-read and the alarm re-armed. */
  async scheduleChanged(scheduleId: string): Promise<number | null> {
    const next = await this.scheduler.refresh(scheduleId);
    await this.ports.arm();
    return next;
  }
}
