import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { AUTH_CHANNEL, type AuthMessage, type Role } from '../../shared/auth.js';
import { api } from '../lib/api-client.js';
import { sessionKey } from './use-session.js';

export function signInUrl(role: Role, returnTo: string, attempt?: string): string {
  const query = new URLSearchParams({ returnTo, ...(attempt ? { popup: '1', attempt } : {}) });
  return `/auth/${role}/start?${query.toString()}`;
}

function isAuthMessage(value: unknown): value is AuthMessage {
  const v = value as AuthMessage | null;
  return (
    !!v &&
    (v.type === 'homecooked:signed-in' || v.type === 'homecooked:sign-in-failed') &&
    (v.role === 'kitchen' || v.role === 'customer' || v.role === 'operator')
  );
}

/** 128 random bits, base64url: an id nobody else can guess (the page may be plain http, without randomUUID). */
function newAttempt(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/**
 * Signs in with Google in a popup. The popup ends on our /auth/done page, which tells this tab through a
 * BroadcastChannel and `window.opener.postMessage` (either may be cut by the provider's opener policy) and
 * closes. A blocked popup falls back to a full-page redirect that comes back to `returnTo`.
 *
 * Each click is an attempt with a random id that comes back in the answer. `onDone` runs only for the attempt
 * this tab has pending, and once: the answer arrives twice (opener and channel), other tabs' sign-ins arrive on
 * the channel too, and anyone can open /auth/done with any query. Another tab's successful sign-in only
 * refreshes who is signed in here.
 */
export function useSignIn(role: Role, onDone?: (ok: boolean) => void) {
  const queryClient = useQueryClient();
  const onDoneRef = useRef(onDone);
  const pendingRef = useRef<string | undefined>(undefined);
  useEffect(() => {
    onDoneRef.current = onDone;
  });

  useEffect(() => {
    const handle = (data: unknown) => {
      if (!isAuthMessage(data) || data.role !== role) return;
      const ours = !!pendingRef.current && data.attempt === pendingRef.current;
      const ok = data.type === 'homecooked:signed-in';
      if (ours) pendingRef.current = undefined;
      if (!ours && !ok) return;
      const refreshed = queryClient.invalidateQueries({ queryKey: sessionKey });
      if (ours) void refreshed.then(() => onDoneRef.current?.(ok));
    };
    const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(AUTH_CHANNEL) : undefined;
    if (channel) channel.onmessage = (event: MessageEvent) => handle(event.data);
    const onMessage = (event: MessageEvent) => {
      if (event.origin === window.location.origin) handle(event.data);
    };
    window.addEventListener('message', onMessage);
    return () => {
      channel?.close();
      window.removeEventListener('message', onMessage);
    };
  }, [role, queryClient]);

  return useCallback(
    (returnTo: string = window.location.pathname + window.location.search) => {
      const attempt = newAttempt();
      pendingRef.current = attempt;
      const width = 480;
      const height = 640;
      const left = window.screenX + Math.max(0, (window.outerWidth - width) / 2);
      const top = window.screenY + Math.max(0, (window.outerHeight - height) / 2);
      const popup = window.open(
        signInUrl(role, returnTo, attempt),
        `homecooked-sign-in-${role}`,
        `popup=yes,width=${width},height=${height},left=${left},top=${top}`,
      );
      if (!popup) {
        pendingRef.current = undefined;
        window.location.assign(signInUrl(role, returnTo));
      }
    },
    [role],
  );
}

/** Signs `role` out on the server (the other identity stays signed in). */
export function useSignOut(role: Role) {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    await api.post(`/auth/${role}/sign-out`);
    await queryClient.invalidateQueries({ queryKey: sessionKey });
  }, [role, queryClient]);
}
