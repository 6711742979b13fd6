// Every game played whole against computers on a 375×812 phone, the table seen whole at
// every turn and at the end (see games.js).

import { setup, PHONE } from './harness.js';
import { everyGame } from './games.js';

const env = setup();

everyGame(env, 'phone', PHONE);
