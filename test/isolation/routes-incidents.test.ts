/** The isolation suite for the routes of the group `incidents` (test/isolation/groups.ts, suite.ts). */
import { isolationSuite } from './suite.js';

isolationSuite('incidents');
