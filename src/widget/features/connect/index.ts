/** The channel-connect screen of the channels frame (/embed/channels). */
export { ConnectScreen } from './components/ConnectScreen.tsx';
