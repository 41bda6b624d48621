/** The chat screen of the chat frame (/embed/chats). */
export { ChatScreen } from './components/ChatScreen.tsx';
