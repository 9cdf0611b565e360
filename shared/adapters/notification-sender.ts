/**
 * Where the notification to the users of a level's roles goes, with its acknowledgement link (a
 * token in the clear, as in the messages integrations and email recipients get). Under the local
 * runtime, a file of JSON lines (LOCAL_NOTIFICATIONS_FILE, `<data dir>/logs/notifications.jsonl`):
 * what each user would receive. In AWS there is no sender for users yet: their roles are not told
 * (the level's integrations and the email recipients are).
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
  /** The roles whose users are told (email recipients and integrations get messages of their own). */
  to: { roles: readonly string[] };
  /** The link a person opens to acknowledge (path and token). */
  acknowledge_path: string;
  /** The same, absolute (PUBLIC_API_URL), when the address is known. */
  acknowledge_url?: string;
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
  if (sender === undefined)
    sender = config.localNotificationsFile ? new FileSender(config.localNotificationsFile) : null;
  return sender;
}
