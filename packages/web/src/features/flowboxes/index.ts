export { useCommands } from './api/list-commands.ts';
