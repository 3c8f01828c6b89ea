import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

/**
 * The processor time (user + system) a process has used so far, in ms, from the text of its /proc/<pid>/stat: the
 * kernel counts it in clock ticks, 100 a second (USER_HZ on Linux).
 */
function statProcessorMs(stat: string): number {
  // The fields after the command's name (which may hold spaces, in parentheses): utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** A process's processor time so far, in ms (statProcessorMs). Rejects when the process is gone. */
export async function processorMs(pid: number): Promise<number> {
  return statProcessorMs(await readFile(`/proc/${pid}/stat`, 'utf8'));
}

/** processorMs read at once, for a caller that cannot wait (a query's hook); throws when the process is gone. */
export function processorMsNow(pid: number): number {
  return statProcessorMs(readFileSync(`/proc/${pid}/stat`, 'utf8'));
}
