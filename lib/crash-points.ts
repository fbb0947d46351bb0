/**
 * Named points where the crash tests kill the service (tests/crash.test.ts). With RMB_PAUSE_AT set to a point's
 * name, a process that reaches it says so on stdout and waits there, to be killed; without it (always, outside
 * those tests) a point does nothing.
 */
export type CrashPoint =
  | 'confirm:samples-written'
  | 'registration:ena-answered'
  | 'registration:samples-answered'
  | 'study-ena:project-added'
  | 'study-ena:files-staged'
  | 'study-ena:runs-added'
  | 'study-ena:analyses-added'
  | 'zenodo:file-uploaded'
  | 'bioimages:mid-transfer'
  | 'bioimages:sent';

export async function crashPoint(name: CrashPoint): Promise<void> {
  if (process.env.RMB_PAUSE_AT !== name) return;
  process.stdout.write(`RMB_PAUSED ${name}\n`);
  await new Promise<never>(() => {});
}
