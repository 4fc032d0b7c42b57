// Every test file's setup (vitest.config.ts): the process's watchdog (tests/setup/watchdog.ts,
// decision 45-01), told which file and test run now.
import { beforeEach } from 'vitest';
import { installWatchdog } from './watchdog';

const tell = installWatchdog();

beforeEach((ctx) => {
  tell(`${ctx.task.file?.name ?? '(unknown file)'} > ${ctx.task.name}`);
});
