/** The chat screen of the chat frame (/embed/chats). */
export { ChatScreen, preloadChatView } from './components/ChatScreen.tsx';
export { prefetchChatScreen } from './prefetch.ts';
