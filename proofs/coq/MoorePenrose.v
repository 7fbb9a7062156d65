(* ========================================================================= *)
(* femc -- machine-checked Moore--Penrose facts used by the Gauss papers.    *)
(*                                                                           *)
(* The Moore--Penrose inverse is characterised by the four Penrose           *)
(* equations (paper 004, text before P1; paper 001, refs [15]-[17]):        *)
(*     X Xp X = X,   Xp X Xp = Xp,   (X Xp)^T = X Xp,   (Xp X)^T = Xp X.     *)
(* All results are stated for an arbitrary matrix Xp satisfying             *)
(* [is_pinv X Xp]; existence ([pinv_exists]) and uniqueness                 *)
(* ([pinv_unique]) are proved too, so the hypothesis is never vacuous.      *)
(*                                                                           *)
(* Claim IDs refer to ../shared/CLAIMS.md (beside the repository).          *)
(* ========================================================================= *)

From mathcomp Require Import all_ssreflect all_algebra.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Import GRing.Theory Num.Theory.
Local Open Scope ring_scope.

Section MoorePenrose.

Variable R : realFieldType.

(* ------------------------------------------------------------------------- *)
(* Definition: the four Penrose equations.                                   *)
(* ------------------------------------------------------------------------- *)

Definition is_pinv (m n : nat) (X : 'M[R]_(m, n)) (Xp : 'M[R]_(n, m)) : Prop :=
  [/\ X *m Xp *m X = X,
      Xp *m X *m Xp = Xp,
      (X *m Xp)^T = X *m Xp &
      (Xp *m X)^T = Xp *m X].

(* Squared Euclidean norm of a column vector, as a 1x1 matrix (the papers'  *)
(* v^T v) and as a scalar.                                                   *)
Definition nrm2 (k : nat) (v : 'cV[R]_k) : 'M[R]_1 := v^T *m v.
Definition sqn (k : nat) (v : 'cV[R]_k) : R := (v^T *m v) 0 0.

(* ------------------------------------------------------------------------- *)
(* Real-field positivity: X X^T = 0 -> X = 0, and ||v||^2 >= 0, = 0 iff 0.   *)
(* ------------------------------------------------------------------------- *)

Lemma mulmx_tr_eq0 (k l : nat) (X : 'M[R]_(k, l)) : X *m X^T = 0 -> X = 0.
Proof.
move=> H; apply/matrixP => i j; rewrite mxE.
have Hii : \sum_j0 X i j0 ^+ 2 = 0.
  have := congr1 (fun Y : 'M[R]_k => Y i i) H; rewrite !mxE => Hs.
  rewrite -[RHS]Hs; by apply: eq_bigr => j0 _; rewrite mxE expr2.
have := psumr_eq0P (fun j0 _ => sqr_ge0 (X i j0)) Hii (i:=j) isT.
by move/eqP; rewrite sqrf_eq0 => /eqP.
Qed.

Lemma sqnE (k : nat) (v : 'cV[R]_k) : sqn v = \sum_i v i 0 ^+ 2.
Proof. by rewrite /sqn mxE; apply: eq_bigr => i _; rewrite mxE expr2. Qed.

Lemma sqn_ge0 (k : nat) (v : 'cV[R]_k) : 0 <= sqn v.
Proof. by rewrite sqnE; apply: sumr_ge0 => i _; exact: sqr_ge0. Qed.

Lemma sqn_eq0 (k : nat) (v : 'cV[R]_k) : sqn v = 0 -> v = 0.
Proof.
rewrite sqnE => H; apply/matrixP => i j; rewrite (ord1 j) mxE.
have := psumr_eq0P (fun i0 _ => sqr_ge0 (v i0 0)) H (i:=i) isT.
by move/eqP; rewrite sqrf_eq0 => /eqP.
Qed.

Lemma sqn0 (k : nat) : sqn (0 : 'cV[R]_k) = 0.
Proof. by rewrite /sqn trmx0 mul0mx mxE. Qed.

Lemma sqn_nrm2 (k : nat) (v : 'cV[R]_k) : sqn v = nrm2 v 0 0.
Proof. by []. Qed.

(* ||u + w||^2 = ||u||^2 + ||w||^2 when u^T w = 0 (Pythagoras).            *)
Lemma nrm2_pythagoras (k : nat) (u w : 'cV[R]_k) :
  u^T *m w = 0 -> nrm2 (u + w) = nrm2 u + nrm2 w.
Proof.
move=> Huw; have Hwu : w^T *m u = 0.
  by rewrite -(trmxK (w^T *m u)) trmx_mul trmxK Huw trmx0.
rewrite /nrm2.
have -> : (u + w)^T = u^T + w^T by apply/matrixP => i j; rewrite !mxE.
by rewrite mulmxDl !mulmxDr Huw Hwu addr0 add0r.
Qed.

Lemma sqn_pythagoras (k : nat) (u w : 'cV[R]_k) :
  u^T *m w = 0 -> sqn (u + w) = sqn u + sqn w.
Proof.
move=> H; have := nrm2_pythagoras H; rewrite /nrm2 /sqn => ->.
by rewrite mxE.
Qed.

(* A matrix that kills every column vector is zero. *)
Lemma mx_eq0_cols (k l : nat) (X : 'M[R]_(k, l)) :
  (forall h : 'cV[R]_l, X *m h = 0) -> X = 0.
Proof.
move=> H; apply/matrixP => i j.
have := H (delta_mx j 0); rewrite -colE => /matrixP /(_ i 0).
by rewrite !mxE.
Qed.

(* ------------------------------------------------------------------------- *)
(* Elementary consequences of the Penrose equations.                         *)
(* ------------------------------------------------------------------------- *)

Section PinvFacts.

Variables m n : nat.
Variables (X : 'M[R]_(m, n)) (Xp : 'M[R]_(n, m)).
Hypothesis HX : is_pinv X Xp.

Lemma pinv1 : X *m Xp *m X = X. Proof. by case: HX. Qed.
Lemma pinv2 : Xp *m X *m Xp = Xp. Proof. by case: HX. Qed.
Lemma pinv3 : (X *m Xp)^T = X *m Xp. Proof. by case: HX. Qed.
Lemma pinv4 : (Xp *m X)^T = Xp *m X. Proof. by case: HX. Qed.

(* X (Xp X) = X *)
Lemma pinv1r : X *m (Xp *m X) = X. Proof. by rewrite mulmxA pinv1. Qed.

(* X^T (X Xp) = X^T *)
Lemma pinv_trX_proj : X^T *m (X *m Xp) = X^T.
Proof. by rewrite -pinv3 -trmx_mul pinv1. Qed.

(* (Xp X) X^T = X^T *)
Lemma pinv_proj_trX : Xp *m X *m X^T = X^T.
Proof. by rewrite -pinv4 -trmx_mul pinv1r. Qed.

(* Xp^T (Xp X) = Xp^T *)
Lemma pinv_trXp_proj : Xp^T *m (Xp *m X) = Xp^T.
Proof. by rewrite -pinv4 -trmx_mul pinv2. Qed.

(* (X Xp)^T-free forms: Xp (X Xp) = Xp and (Xp X) Xp = Xp *)
Lemma pinv2r : Xp *m (X *m Xp) = Xp. Proof. by rewrite mulmxA pinv2. Qed.

(* Left-associated forms, convenient after normalising with mulmxA. *)
Lemma pinv1l (k : nat) (Y : 'M[R]_(k, m)) : Y *m X *m Xp *m X = Y *m X.
Proof. by rewrite -!mulmxA pinv1r. Qed.

Lemma pinv2l (k : nat) (Y : 'M[R]_(k, n)) : Y *m Xp *m X *m Xp = Y *m Xp.
Proof. by rewrite -!mulmxA pinv2r. Qed.

(* X (1 - Xp X) = 0 : the columns of (1 - Xp X) lie in Null(X). *)
Lemma pinv_mul_compl : X *m (1%:M - Xp *m X) = 0.
Proof. by rewrite mulmxBr mulmx1 pinv1r subrr. Qed.

(* (1 - Xp X) Xp = 0 *)
Lemma pinv_compl_mul : (1%:M - Xp *m X) *m Xp = 0.
Proof. by rewrite mulmxBl mul1mx pinv2 subrr. Qed.

(* Xp^T (1 - Xp X) = 0 *)
Lemma pinv_trXp_compl : Xp^T *m (1%:M - Xp *m X) = 0.
Proof. by rewrite mulmxBr mulmx1 pinv_trXp_proj subrr. Qed.

(* 1 - Xp X is symmetric and idempotent. *)
Lemma pinv_compl_sym : (1%:M - Xp *m X)^T = 1%:M - Xp *m X.
Proof. by rewrite linearB /= trmx1 pinv4. Qed.

Lemma pinv_proj_idem : Xp *m X *m (Xp *m X) = Xp *m X.
Proof. by rewrite mulmxA pinv2. Qed.

Lemma pinv_compl_idem :
  (1%:M - Xp *m X) *m (1%:M - Xp *m X) = 1%:M - Xp *m X.
Proof. by rewrite mulmxBl mul1mx -mulmxA pinv_mul_compl mulmx0 subr0. Qed.

(* The transpose of a pseudo-inverse is a pseudo-inverse of the transpose. *)
Lemma is_pinv_tr : is_pinv X^T Xp^T.
Proof.
split.
- by rewrite -!trmx_mul mulmxA pinv1.
- by rewrite -!trmx_mul mulmxA pinv2.
- by rewrite -trmx_mul trmxK pinv4.
- by rewrite -trmx_mul trmxK pinv3.
Qed.

End PinvFacts.

(* ------------------------------------------------------------------------- *)
(* Uniqueness of the Moore--Penrose inverse.                                 *)
(* ------------------------------------------------------------------------- *)

Theorem pinv_unique (m n : nat) (X : 'M[R]_(m, n)) (Y Z : 'M[R]_(n, m)) :
  is_pinv X Y -> is_pinv X Z -> Y = Z.
Proof.
move=> HY HZ.
(* (XY)(XZ) = XY, from (XY)^T (XZ)^T = (X Z X Y)^T = (XY)^T *)
have h1 : X *m Y *m (X *m Z) = X *m Y.
  rewrite -(pinv3 HY) -(pinv3 HZ) -trmx_mul; congr (_^T).
  by rewrite mulmxA (pinv1 HZ).
(* (YX)(ZX) = ZX, from (YX)^T (ZX)^T = (Z X Y X)^T = (ZX)^T *)
have h2 : Y *m X *m (Z *m X) = Z *m X.
  rewrite -(pinv4 HY) -(pinv4 HZ) -trmx_mul; congr (_^T).
  by rewrite -mulmxA [X *m (Y *m X)]mulmxA (pinv1 HY).
(* Y = Y X Y = Y (XY)(XZ) = Y X Z *)
have E1 : Y = Y *m X *m Z.
  rewrite -{1}(pinv2r HY) -h1 !mulmxA (pinv2 HY) //.
(* Z = Z X Z = (YX)(ZX) Z = Y X Z *)
have E2 : Z = Y *m X *m Z.
  rewrite -{1}(pinv2 HZ) -h2 -[Y *m X *m (Z *m X) *m Z]mulmxA (pinv2 HZ) //.
exact: etrans E1 (esym E2).
Qed.

(* ------------------------------------------------------------------------- *)
(* Existence of the Moore--Penrose inverse over a real field (via the full-  *)
(* rank factorisation X = F G, F = col_base X, G = row_base X):              *)
(*     X^+ = G^T (G G^T)^-1 (F^T F)^-1 F^T.                                  *)
(* ------------------------------------------------------------------------- *)

Lemma gram_unit (r k : nat) (G : 'M[R]_(r, k)) :
  row_free G -> G *m G^T \in unitmx.
Proof.
move=> fG; rewrite -row_free_unit -kermx_eq0; apply/eqP.
set K := kermx (G *m G^T).
have HK : K *m (G *m G^T) = 0 by exact: mulmx_ker.
have HKG : K *m G = 0.
  apply: mulmx_tr_eq0; by rewrite trmx_mul !mulmxA -(mulmxA K) HK mul0mx.
by apply/eqP; rewrite -(mulmx_free_eq0 _ fG); apply/eqP.
Qed.

(* Moore--Penrose inverse of a full-rank product F G. *)
Lemma is_pinv_full_rank (m r n : nat) (F : 'M[R]_(m, r)) (G : 'M[R]_(r, n)) :
  F^T *m F \in unitmx -> G *m G^T \in unitmx ->
  is_pinv (F *m G) (G^T *m invmx (G *m G^T) *m invmx (F^T *m F) *m F^T).
Proof.
move=> uF uG.
set iG := invmx (G *m G^T); set iF := invmx (F^T *m F).
have hF : iF *m (F^T *m F) = 1%:M by exact: mulVmx.
have hG : G *m G^T *m iG = 1%:M by exact: mulmxV.
have siG : iG^T = iG by rewrite /iG trmx_inv trmx_mul trmxK.
have siF : iF^T = iF by rewrite /iF trmx_inv trmx_mul trmxK.
(* X X^+ = F iF F^T   and   X^+ X = G^T iG G, both symmetric *)
have L : F *m G *m (G^T *m iG *m iF *m F^T) = F *m iF *m F^T.
  by rewrite !mulmxA -(mulmxA F G) -(mulmxA F) hG mulmx1.
have Rr : G^T *m iG *m iF *m F^T *m (F *m G) = G^T *m iG *m G.
  rewrite !mulmxA -(mulmxA (G^T *m iG *m iF) F^T F).
  by rewrite -(mulmxA (G^T *m iG) iF) hF mulmx1.
split.
- rewrite L !mulmxA -(mulmxA (F *m iF) F^T F).
  by rewrite -(mulmxA F iF) hF mulmx1.
- rewrite Rr !mulmxA -(mulmxA (G^T *m iG) G G^T).
  by rewrite -(mulmxA (G^T *m iG) (G *m G^T) iG) hG mulmx1.
- by rewrite L !trmx_mul trmxK siF mulmxA.
- by rewrite Rr !trmx_mul trmxK siG mulmxA.
Qed.

Definition pinv (m n : nat) (X : 'M[R]_(m, n)) : 'M[R]_(n, m) :=
  let F := col_base X in
  let G := row_base X in
  G^T *m invmx (G *m G^T) *m invmx (F^T *m F) *m F^T.

Theorem pinvP (m n : nat) (X : 'M[R]_(m, n)) : is_pinv X (pinv X).
Proof.
rewrite /pinv.
set F := col_base X; set G := row_base X.
have EX : F *m G = X by exact: mulmx_base.
have uG : G *m G^T \in unitmx by apply: gram_unit; exact: row_base_free.
have uF : F^T *m F \in unitmx.
  have -> : F^T *m F = F^T *m F^T^T by rewrite trmxK.
  apply: gram_unit; rewrite /row_free mxrank_tr.
  by have := col_base_full X; rewrite /row_full.
by have := is_pinv_full_rank uF uG; rewrite EX.
Qed.

Corollary pinv_exists (m n : nat) (X : 'M[R]_(m, n)) :
  exists Xp : 'M[R]_(n, m), is_pinv X Xp.
Proof. by exists (pinv X); exact: pinvP. Qed.

(* ------------------------------------------------------------------------- *)
(* E3: the properties P2-P4 of paper 004 (eqs. (6)-(8)).                     *)
(* (P1, the SVD construction, is replaced by [pinvP], the full-rank          *)
(* factorisation construction, which needs no spectral theorem.)            *)
(* ------------------------------------------------------------------------- *)

Section E3.

Variables m n : nat.
Variables (B : 'M[R]_(m, n)) (Bp : 'M[R]_(n, m)).
Hypothesis HB : is_pinv B Bp.

(* 004 (6), property P2: B x = b is consistent iff B B^+ b = b. *)
Theorem E3a_consistency (b : 'cV[R]_m) :
  (exists x : 'cV[R]_n, B *m x = b) <-> B *m Bp *m b = b.
Proof.
split=> [[x <-]|Hb]; last by exists (Bp *m b); rewrite mulmxA.
by rewrite mulmxA (pinv1 HB).
Qed.

(* 004 (7), property P3: B x = 0 implies x^T B^+ = 0.  (The paper's side   *)
(* condition x <> 0 is not needed.)  Equivalently (B^+)^T x = 0.          *)
Theorem E3b_null_pinv (x : 'cV[R]_n) : B *m x = 0 -> x^T *m Bp = 0.
Proof.
move=> Hx.
rewrite -(pinv2 HB) mulmxA -[x^T *m (Bp *m B)]trmxK trmx_mul trmxK.
by rewrite (pinv4 HB) -mulmxA Hx mulmx0 trmx0 mul0mx.
Qed.

Corollary E3b_null_pinv_tr (x : 'cV[R]_n) : B *m x = 0 -> Bp^T *m x = 0.
Proof.
by move=> /E3b_null_pinv Hx; rewrite -[x]trmxK -trmx_mul Hx trmx0.
Qed.

(* 001 text after (21): (I - B^+ B)^T B^+ = 0, so Range(B^+) = Range(B^T)  *)
(* is orthogonal to Null(B) = Range(I - B^+ B).                           *)
Theorem E3c_compl_orth : (1%:M - Bp *m B)^T *m Bp = 0.
Proof. by rewrite (pinv_compl_sym HB) (pinv_compl_mul HB). Qed.

(* 004 (8), property P4: for consistent B x = b the solutions are exactly  *)
(* x = B^+ b + (I - B^+ B) h, h arbitrary.                                 *)
Theorem E3d_general_solution (b : 'cV[R]_m) :
  (exists x0 : 'cV[R]_n, B *m x0 = b) ->
  forall x : 'cV[R]_n,
    B *m x = b <-> exists h : 'cV[R]_n, x = Bp *m b + (1%:M - Bp *m B) *m h.
Proof.
move=> /E3a_consistency Hb x; split=> [Hx|[h ->]].
  exists x; rewrite mulmxBl mul1mx -mulmxA Hx.
  by rewrite addrC subrK.
by rewrite mulmxDr mulmxA Hb mulmxA (pinv_mul_compl HB) mul0mx addr0.
Qed.

End E3.

(* ------------------------------------------------------------------------- *)
(* G7: Lemma 1 of paper 001, eq. (41).                                       *)
(* ------------------------------------------------------------------------- *)

Theorem G7_lemma1 (m n : nat) (U : 'M[R]_m) (B P : 'M[R]_(m, n))
    (Bp Pp : 'M[R]_(n, m)) :
  U \in unitmx -> P = U *m B -> is_pinv B Bp -> is_pinv P Pp ->
  Pp *m P = Bp *m B.
Proof.
move=> uU EP HB HP.
(* P B^+ B = U B B^+ B = U B = P *)
have hPB : P *m (Bp *m B) = P by rewrite EP -mulmxA (pinv1r HB).
(* B P^+ P = U^-1 P P^+ P = U^-1 P = B *)
have hBP : B *m (Pp *m P) = B.
  have EB : B = invmx U *m P by rewrite EP mulKmx.
  by rewrite {1}EB -mulmxA (pinv1r HP) -EB.
(* P^+ P = (P^+ P B^+ B)^T = (B^+ B)^T (P^+ P)^T = B^+ (B P^+ P) = B^+ B *)
transitivity ((Pp *m P *m (Bp *m B))^T).
  by rewrite -mulmxA hPB (pinv4 HP).
by rewrite trmx_mul (pinv4 HB) (pinv4 HP) -mulmxA hBP.
Qed.

End MoorePenrose.
