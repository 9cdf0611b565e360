/**
 * An NMEA log read as a receiver's software hands it on to Gatehouse: one AIS message a time (the
 * parts of a multi-part message together, in order, matched by talker, part count, sequence id and
 * channel, as radios interleave them), other lines (comments, GPS sentences) left out. A part whose
 * message never completes is handed on alone, as a feed would, so that the API counts it.
 */
export function aisMessagesOf(log: string): string[][] {
  const messages: string[][] = [];
  const pending = new Map<string, string[]>();
  for (const raw of log.split(/\r?\n/)) {
    const line = raw.trim();
    const sentence = line.replace(/^\\[^\\]*\\/, '');
    if (!/^!..VD[MO],/.test(sentence)) continue;
    const [talker, count, part, sequence, channel] = sentence.split(',');
    if (count === '1') {
      messages.push([line]);
      continue;
    }
    const key = `${talker}/${count}/${sequence}/${channel}`;
    const unfinished = part === '1' ? pending.get(key) : undefined;
    if (unfinished) messages.push(unfinished);
    const parts = part === '1' ? [] : pending.get(key);
    if (!parts || parts.length !== Number(part) - 1) {
      messages.push([line]);
      continue;
    }
    parts.push(line);
    if (part === count) {
      messages.push(parts);
      pending.delete(key);
    } else pending.set(key, parts);
  }
  messages.push(...pending.values());
  return messages;
}
