//! A connection's account messages: register, log in, play as a guest, log out, change
//! the password, delete the account, and a moderator's bans. Each answers on this
//! connection; a refusal changes nothing.

use super::Conn;
use crate::hall::Refusal;
use crate::protocol::ErrorCode;
use crate::protocol::{ClientMessage, ServerMessage};

impl Conn {
    /// Carries out an account message; [`Conn::handle`] sends every other kind elsewhere.
    pub(super) async fn account(&mut self, message: ClientMessage) -> Result<(), Refusal> {
        let hall = self.hall.clone();
        match message {
            ClientMessage::Register { name, password } => {
                let current = self.client.user.clone();
                let s = hall
                    .accounts
                    .register(current.as_ref(), &name, &password, &self.address)
                    .await
                    .map_err(|e| Refusal::new(e.code(), e.to_string()))?;
                // A guest who registers gets a new session; the guest's token, which now
                // names the registered account, ends, so no copy of it left anywhere (a
                // shared computer's storage) opens an account with a password.
                if let (Some(old), true) = (&self.token, current.is_some_and(|u| u.guest)) {
                    if let Err(e) = hall.accounts.logout(old).await {
                        tracing::warn!(error = %e, "the guest's session did not end");
                    }
                }
                self.session(s).await;
                Ok(())
            }
            ClientMessage::Login { name, password } => {
                let s = hall
                    .accounts
                    .login(&name, &password, &self.address)
                    .await
                    .map_err(|e| Refusal::new(e.code(), e.to_string()))?;
                self.session(s).await;
                Ok(())
            }
            ClientMessage::ChangePassword {
                password,
                new_password,
            } => {
                let (Some(user), Some(token)) = (self.client.user.clone(), self.token.clone())
                else {
                    return Err(Refusal::not_logged_in());
                };
                let ended = hall
                    .accounts
                    .change_password(&user, &token, &password, &new_password, &self.address)
                    .await
                    .map_err(|e| Refusal::new(e.code(), e.to_string()))?;
                self.client.out.send(&ServerMessage::PasswordChanged {
                    sessions_ended: ended,
                });
                Ok(())
            }
            ClientMessage::DeleteAccount { password } => {
                let user = self.user()?.clone();
                let seated = hall.seated_tables(&user);
                if !seated.is_empty() {
                    return Err(Refusal::new(
                        ErrorCode::Seated,
                        format!("leave your tables first: {}", seated.join(", ")),
                    ));
                }
                hall.accounts
                    .delete_account(&user, &password, &self.address)
                    .await
                    .map_err(|e| Refusal::new(e.code(), e.to_string()))?;
                hall.release_online(&user, self.client.conn);
                self.client.user = None;
                self.token = None;
                self.client.out.send(&ServerMessage::AccountDeleted);
                Ok(())
            }
            ClientMessage::Ban { user, reason } => {
                let by = self.client.user.clone();
                let answer = crate::moderation::ban(&hall, by.as_ref(), &user, &reason).await?;
                self.client.out.send(&answer);
                Ok(())
            }
            ClientMessage::Unban { user } => {
                let by = self.client.user.clone();
                let answer = crate::moderation::unban(&hall, by.as_ref(), &user).await?;
                self.client.out.send(&answer);
                Ok(())
            }
            ClientMessage::Bans => {
                let by = self.client.user.clone();
                let answer = crate::moderation::bans(&hall, by.as_ref()).await?;
                self.client.out.send(&answer);
                Ok(())
            }
            ClientMessage::Guest => {
                let s = hall
                    .accounts
                    .guest(&self.address)
                    .await
                    .map_err(|e| Refusal::new(e.code(), e.to_string()))?;
                self.session(s).await;
                Ok(())
            }
            ClientMessage::Logout => {
                if let Some(t) = self.token.take() {
                    hall.accounts
                        .logout(&t)
                        .await
                        .map_err(|e| Refusal::new(e.code(), e.to_string()))?;
                }
                if let Some(u) = self.client.user.take() {
                    hall.release_online(&u, self.client.conn);
                }
                self.client.out.send(&ServerMessage::LoggedOut);
                Ok(())
            }
            // Only the kinds above come here; nothing of a message (a password) is echoed.
            _ => Err(Refusal::new(ErrorCode::Internal, "not an account message")),
        }
    }
}
