// Every connector tool, built with its dependencies: added to the one registry (src/edge/conveyor/registry.ts).
import type { ConveyorTool } from "../conveyor/tool.ts";
import { calendarFreeBusy, calendarList } from "./calendar/read-tools.ts";
import { calendarCreate, calendarDelete, calendarUpdate } from "./calendar/write-tools.ts";
import type { ConnectorDeps } from "./deps.ts";
import { githubIssueRead, githubPrRead } from "./github/read-tools.ts";
import { githubIssueComment, githubPrCreate, githubPrMerge } from "./github/write-tools.ts";
import { gmailRead, gmailSearch } from "./gmail/read-tools.ts";
import { gmailDraft, gmailReply, gmailSend } from "./gmail/send-tools.ts";
import { braveSearch } from "./search/brave.ts";
import { webSearch } from "./search/web-search.ts";

export const CONNECTOR_TOOL_NAMES = [
  "gmail.search",
  "gmail.read",
  "gmail.draft",
  "gmail.send",
  "gmail.reply",
  "calendar.list",
  "calendar.freebusy",
  "calendar.create",
  "calendar.update",
  "calendar.delete",
  "github.issue.read",
  "github.pr.read",
  "github.issue.comment",
  "github.pr.create",
  "github.pr.merge",
  "web.search",
] as const;

export function connectorTools(deps: ConnectorDeps): ConveyorTool[] {
  return [
    gmailSearch(deps),
    gmailRead(deps),
    gmailDraft(deps),
    gmailSend(deps),
    gmailReply(deps),
    calendarList(deps),
    calendarFreeBusy(deps),
    calendarCreate(deps),
    calendarUpdate(deps),
    calendarDelete(deps),
    githubIssueRead(deps),
    githubPrRead(deps),
    githubIssueComment(deps),
    githubPrCreate(deps),
    githubPrMerge(deps),
    webSearch(braveSearch(deps)),
  ] as ConveyorTool[];
}
