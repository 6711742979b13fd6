// Every game played whole against computers on a 1280×800 desktop, the table seen whole at
// every turn and at the end (see games.js).

import { setup, DESKTOP } from './harness.js';
import { everyGame } from './games.js';

const env = setup();

// In Chinese, the language of the screenshots the docs show; the guide's test plays every
// game at 1280×800 in English with the same fit check.
everyGame(env, 'desktop', { ...DESKTOP, locale: 'zh-CN' });
