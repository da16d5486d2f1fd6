import { feltProject } from '../../vitest.shared.ts';

export default feltProject('@felt/blind');
