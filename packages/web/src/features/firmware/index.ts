export { FlowboxFirmwareCard } from './components/FlowboxFirmwareCard.tsx';
