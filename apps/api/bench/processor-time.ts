import { readFile } from 'node:fs/promises';

/**
 * The processor time (user + system) a process has used so far, in ms: /proc/<pid>/stat counts it in the kernel's
 * clock ticks, 100 a second (USER_HZ on Linux). Rejects when the process is gone.
 */
export async function processorMs(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // The fields after the command's name (which may hold spaces, in parentheses): utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
