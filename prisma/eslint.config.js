// @ts-check
// The root tsconfig.check.json that type-aware lint uses does not list prisma/test, prisma/scripts
// or prisma.config.ts; this file (ESLint looks it up from the linted file's directory) extends the
// root config and points those files at prisma/tsconfig.tools.json instead.
import root from '../eslint.config.js';

export default [
  { ignores: ['src/generated/**', 'dist/**'] },
  ...root,
  {
    files: ['test/**/*.ts', 'scripts/**/*.ts', 'prisma.config.ts'],
    languageOptions: {
      parserOptions: { project: './tsconfig.tools.json', tsconfigRootDir: import.meta.dirname },
    },
  },
];
