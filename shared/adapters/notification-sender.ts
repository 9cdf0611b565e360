/**
 * Where a notification to a person goes, with its acknowledgement link: the one place the link's
 * token may appear in the clear. Under the local runtime, a file of JSON lines
 * (LOCAL_NOTIFICATIONS_FILE, `<data dir>/logs/notifications.jsonl`): what each person would
 * receive. In AWS there is no sender yet (email, SMS and chat integrations come with the
 * integrations work): then no link is minted and the notification stays on the bus, without one.
 */
import { appendFile } from 'node:fs/promises';
import { config } from '../config.js';

export interface PersonNotification {
  notification_id: string;
  tenant_id: string;
  incident_id: string;
  title: string;
  severity: string;
  escalation_level: number;
  to: { roles: readonly string[]; emails: readonly string[] };
  /** The link a person opens to acknowledge (path and token). */
  acknowledge_path: string;
  link_expires_at: string;
  sent_at: string;
}

export interface NotificationSender {
  send(message: PersonNotification): Promise<void>;
}

class FileSender implements NotificationSender {
  constructor(private readonly file: string) {}
  async send(message: PersonNotification): Promise<void> {
    await appendFile(this.file, `${JSON.stringify(message)}\n`, { mode: 0o600 });
  }
}

let sender: NotificationSender | null | undefined;

/** The configured sender; null when there is none (in AWS, for now). */
export function notificationSender(): NotificationSender | null {
  if (sender === undefined) sender = config.localNotificationsFile ? new FileSender(config.localNotificationsFile) : null;
  return sender;
}
