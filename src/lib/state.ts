/**
 * The app's one door to jotai (lint bans importing 'jotai' anywhere else): screens and hooks
 * take atoms and hooks from here, so the state library can be wrapped, traced or replaced in
 * one file. Re-export more of jotai here when a screen needs it.
 */
export { atom, createStore, Provider, useAtomValue, useSetAtom } from 'jotai';
