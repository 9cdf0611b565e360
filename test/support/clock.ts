/** Moving this process's clock for code that stamps times itself (domain functions, workers). */
import { vi } from 'vitest';

/**
 * Runs `work` with this process's clock (Date only: timers and I/O run as usual) at `ms`: what the
 * domain stamps with `now()` in it happened then.
 */
export async function atTime<T>(ms: number, work: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(ms);
  try {
    return await work();
  } finally {
    vi.useRealTimers();
  }
}
