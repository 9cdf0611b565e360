/**
 * Local time of day in a tenant's time zone, for business hours (scoring) and the hours of a
 * threat definition (matching). Formatting a time in a zone is costly; a batch's events share a
 * few minutes, so each (zone, minute) is worked out once.
 */

/** One formatter per time zone: making one costs far more than using it (a batch scores 100 events). */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      hour: '2-digit',
      minute: '2-digit',
      weekday: 'short',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Weekday and minute of the day of a UTC minute in a time zone; a batch's events share a few minutes. */
const localMinutes = new Map<string, { weekday: number; minutes: number }>();

export function localMinuteOf(atMs: number, timeZone: string): { weekday: number; minutes: number } {
  const minute = Math.floor(atMs / 60_000);
  const key = `${timeZone}|${minute}`;
  let local = localMinutes.get(key);
  if (!local) {
    const parts = formatterFor(timeZone).formatToParts(new Date(minute * 60_000));
    const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
    local = {
      weekday: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(get('weekday')) + 1,
      minutes: Number(get('hour')) * 60 + Number(get('minute')),
    };
    if (localMinutes.size > 10_000) localMinutes.clear();
    localMinutes.set(key, local);
  }
  return local;
}

/** Minutes since midnight of `HH:MM`. */
export const minutesOfDay = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Whether a minute of the day is in [start, end); an end before the start spans midnight. */
export function withinTimes(minutes: number, start: number, end: number): boolean {
  return start <= end ? minutes >= start && minutes < end : minutes >= start || minutes < end;
}
