(* ========================================================================= *)
(* femc -- machine-checked identities of the fundamental equation of         *)
(* constrained motion (paper 004), of constraint forces that do work         *)
(* (paper 002) and of the General Gauss Principle (paper 001).               *)
(*                                                                           *)
(* Modelling of the square roots.  The papers use M^{1/2} (M > 0) and        *)
(* W^{1/2} (W > 0).  Here M = S^T S and W = Wh^T Wh for arbitrary            *)
(* invertible S and Wh: S plays M^{1/2}, Wh plays W^{1/2}.  Every M > 0 has  *)
(* such a factorisation (S = M^{1/2}, or a Cholesky factor).  Because S need *)
(* not be symmetric, the papers' M^{+-1/2} are translated by where they      *)
(* act:                                                                      *)
(*   B = A M^{-1/2}                      ->  B = A S^-1                      *)
(*   M^{-1/2} in front of q''-terms      ->  S^-1   (q'' = a + S^-1 B^+ e ...) *)
(*   M^{-1/2} applied to a force (C, Q)  ->  S^-T = (S^-1)^T                 *)
(*   M^{1/2} applied to a force-term     ->  S^T    (Q^N = S^T B^+ e)        *)
(*   M^{1/2} applied to an acceleration  ->  S      (z_s = S z)              *)
(* For S = M^{1/2} (symmetric) every line is the papers' formula verbatim.   *)
(*                                                                           *)
(* Vectors are column matrices 'cV_k; ||v||^2 is written v^T v (a 1x1        *)
(* matrix, [nrm2 v]) or its entry (a scalar, [sqn v]) where an order is      *)
(* needed.                                                                   *)
(* ========================================================================= *)

From mathcomp Require Import all_ssreflect all_algebra.
From Femc Require Import MxRing MoorePenrose.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Import GRing.Theory Num.Theory.
Local Open Scope ring_scope.

(* ------------------------------------------------------------------------- *)
(* G5 in the scaled coordinates: a pure Moore--Penrose identity.             *)
(* ------------------------------------------------------------------------- *)

Section GlobalMinS.

Variable R : realFieldType.
Variables m n : nat.
Variables (P : 'M[R]_(m, n)) (Pp : 'M[R]_(n, m)).
Hypothesis HP : is_pinv P Pp.

(* 001 (28): z_s* = P^+ b~ + (I - P^+ P) y,  with y = M^{-1/2}(Q + C).      *)
Definition zs_star (bt : 'cV[R]_m) (y : 'cV[R]_n) : 'cV[R]_n :=
  Pp *m bt + (1%:M - Pp *m P) *m y.

(* 001 (30): z_s* - y = P^+ (b~ - P y). *)
Theorem G5_eq30 (bt : 'cV[R]_m) (y : 'cV[R]_n) :
  zs_star bt y - y = Pp *m (bt - P *m y).
Proof.
rewrite /zs_star mulmxBl mul1mx mulmxBr mulmxA.
by rewrite addrA addrAC addrK.
Qed.

(* 001 (31)-(33): for every Delta,                                          *)
(*   ||z_s* + (I - P^+P) Delta - y||^2 = ||z_s* - y||^2 + ||(I - P^+P) Delta||^2. *)
(* (Holds for every P; in the paper P = W^{1/2} A M^{-1/2}.)               *)
Theorem G5_E2_global_min_s (bt : 'cV[R]_m) (y Delta : 'cV[R]_n) :
  nrm2 (zs_star bt y + (1%:M - Pp *m P) *m Delta - y)
  = nrm2 (zs_star bt y - y) + nrm2 ((1%:M - Pp *m P) *m Delta).
Proof.
rewrite addrAC nrm2_pythagoras // G5_eq30 trmx_mul -mulmxA [Pp^T *m _]mulmxA.
by rewrite (pinv_trXp_compl HP) mul0mx mulmx0.
Qed.

End GlobalMinS.

(* ------------------------------------------------------------------------- *)
(* The mechanical system at one instant.                                     *)
(* ------------------------------------------------------------------------- *)

Section Mechanics.

Variable R : realFieldType.
Add Ring femc_ring : (femc_ring_theory R).
Variables m n : nat.

Variables (A : 'M[R]_(m, n))     (* constraint matrix, any rank          *)
          (S : 'M[R]_n)          (* M = S^T S ; S stands for M^{1/2}     *)
          (B : 'M[R]_(m, n))     (* B = A M^{-1/2}                       *)
          (Bp : 'M[R]_(n, m)).   (* B^+                                  *)
Hypotheses (uS : S \in unitmx) (EB : B = A *m invmx S) (HB : is_pinv B Bp).

(* a = M^-1 Q, the unconstrained acceleration. *)
Definition acc_free (Q : 'cV[R]_n) : 'cV[R]_n := invmx (S^T *m S) *m Q.

(* 002 (32)-(34): Q^N = M^{1/2} B^+ e,  Q^W = M^{1/2} (I - B^+B) M^{-1/2} C. *)
Definition QN (e : 'cV[R]_m) : 'cV[R]_n := S^T *m Bp *m e.
Definition QW (C : 'cV[R]_n) : 'cV[R]_n :=
  S^T *m (1%:M - Bp *m B) *m (invmx S)^T *m C.

(* 002 (30)/(33), 001 (14): the fundamental equation (with C; C = 0 gives   *)
(* 004 (5)):  q'' = a + M^{-1/2} B^+ (b - A a) + M^{-1/2}(I - B^+B)M^{-1/2} C. *)
Definition FEMC (Q C : 'cV[R]_n) (b : 'cV[R]_m) : 'cV[R]_n :=
  acc_free Q + invmx S *m Bp *m (b - A *m acc_free Q)
  + invmx S *m (1%:M - Bp *m B) *m (invmx S)^T *m C.

(* Gauss's function  G(z) = (z - M^-1 (Q + C))^T M (z - M^-1 (Q + C))      *)
(* (004 (9) for C = 0; 002/000 and 001 (10) with C).                        *)
Definition Gauss (Q C z : 'cV[R]_n) : 'M[R]_1 :=
  (z - invmx (S^T *m S) *m (Q + C))^T *m (S^T *m S)
  *m (z - invmx (S^T *m S) *m (Q + C)).

(* ---- algebra of S ---- *)

Lemma uM : S^T *m S \in unitmx.
Proof. by rewrite unitmx_mul unitmx_tr uS. Qed.

Lemma invM : invmx (S^T *m S) = invmx S *m (invmx S)^T.
Proof.
have H : invmx S *m (invmx S)^T *m (S^T *m S) = 1%:M.
  rewrite !mulmxA -(mulmxA (invmx S)) -trmx_mul mulmxV // trmx1 mulmx1.
  by rewrite mulVmx.
by rewrite -[LHS]mul1mx -H mulmxK // uM.
Qed.

Lemma A_BS : A = B *m S.
Proof. by rewrite EB mulmxKV. Qed.

Lemma StSiT : S^T *m (invmx S)^T = 1%:M.
Proof. by rewrite -trmx_mul mulVmx // trmx1. Qed.

Lemma SiTSt : (invmx S)^T *m S^T = 1%:M.
Proof. by rewrite -trmx_mul mulmxV // trmx1. Qed.

Lemma S_acc_free (Q : 'cV[R]_n) : S *m acc_free Q = (invmx S)^T *m Q.
Proof. by rewrite /acc_free invM !mulmxA mulmxV // mul1mx. Qed.

Lemma A_acc_free (Q : 'cV[R]_n) : A *m acc_free Q = B *m ((invmx S)^T *m Q).
Proof. by rewrite A_BS -mulmxA S_acc_free. Qed.

(* ||v||_M^2 = ||S v||^2 *)
Lemma Gauss_S (Q C z : 'cV[R]_n) :
  Gauss Q C z = nrm2 (S *m z - (invmx S)^T *m (Q + C)).
Proof.
rewrite /Gauss /nrm2 -S_acc_free /acc_free -mulmxBr trmx_mul.
by rewrite !mulmxA.
Qed.

(* Cancellation of S in left-associated products. *)
Lemma cS1 (k : nat) (Y : 'M[R]_(k, n)) : Y *m S *m invmx S = Y.
Proof. exact: mulmxK. Qed.
Lemma cS2 (k : nat) (Y : 'M[R]_(k, n)) : Y *m invmx S *m S = Y.
Proof. exact: mulmxKV. Qed.
Lemma cS3 (k : nat) (Y : 'M[R]_(k, n)) : Y *m S^T *m (invmx S)^T = Y.
Proof. by rewrite -mulmxA StSiT mulmx1. Qed.
Lemma cS4 (k : nat) (Y : 'M[R]_(k, n)) : Y *m (invmx S)^T *m S^T = Y.
Proof. by rewrite -mulmxA SiTSt mulmx1. Qed.

Ltac Scancel :=
  rewrite ?(cS1, cS2, cS3, cS4, mulmxV uS, mulVmx uS, StSiT, SiTSt,
            mulmx1, mul1mx).

(* S q'' - S^-T (Q + C) = B^+ (e - B S^-T C),  e = b - A a. *)
Lemma S_FEMC (Q C : 'cV[R]_n) (b : 'cV[R]_m) :
  S *m FEMC Q C b - (invmx S)^T *m (Q + C)
  = Bp *m (b - A *m acc_free Q - B *m ((invmx S)^T *m C)).
Proof.
rewrite /FEMC /acc_free invM A_BS; mxnorm; Scancel; mxnorm.
mxring R.
Qed.

(* ---- U1: the equation of motion M q'' = Q + Q^N + Q^W ---- *)

(* 002 (30)-(34), 000 (33): M q'' = Q + Q^N + Q^W with e = b - A a. *)
Theorem U1_equation (Q C : 'cV[R]_n) (b : 'cV[R]_m) :
  (S^T *m S) *m FEMC Q C b = Q + QN (b - A *m acc_free Q) + QW C.
Proof.
rewrite /FEMC /QN /QW /acc_free invM; mxnorm; Scancel; mxnorm.
mxring R.
Qed.

(* ---- E4: the constraint force and the deviation of the acceleration ---- *)

(* 004 (14)-(17) (C = 0): Delta q'' = q'' - a = K1 e with K1 = M^{-1/2} B^+, *)
(* and F^c = M q'' - Q = K e with K = M^{1/2} B^+ (= Q^N).                  *)
Theorem E4_constraint_force (Q : 'cV[R]_n) (b : 'cV[R]_m) :
  FEMC Q 0 b - acc_free Q = invmx S *m Bp *m (b - A *m acc_free Q) /\
  (S^T *m S) *m FEMC Q 0 b - Q = S^T *m Bp *m (b - A *m acc_free Q).
Proof.
split; first by rewrite /FEMC mulmx0 addr0 addrC addKr.
by rewrite U1_equation /QW mulmx0 addr0 addrC addKr.
Qed.

(* ---- E1: q'' satisfies consistent constraints ---- *)

(* 004 (10) (and 002 for C <> 0): if A x = b is consistent then A q'' = b. *)
Theorem E1_constraint_satisfied (Q C : 'cV[R]_n) (b : 'cV[R]_m) :
  (exists x : 'cV[R]_n, A *m x = b) -> A *m FEMC Q C b = b.
Proof.
move=> [x Ax].
(* b lies in Range(B): b = B (S x) *)
have Hb : B *m Bp *m b = b.
  by apply/(E3a_consistency HB); exists (S *m x); rewrite mulmxA -A_BS.
rewrite /FEMC A_BS; mxnorm; Scancel; rewrite ?(pinv1 HB, pinv1l HB) Hb.
mxring R.
Qed.

(* ---- E2 / U5: q'' is the global minimum of Gauss's function ---- *)

(* 004 (11)-(13) (C = 0) and 000/002's extended principle (any C):          *)
(* for every u with A u = 0, G(q'' + u) = G(q'') + ||M^{1/2} u||^2.         *)
Theorem E2_global_min_decomposition (Q C : 'cV[R]_n) (b : 'cV[R]_m)
    (u : 'cV[R]_n) :
  A *m u = 0 ->
  Gauss Q C (FEMC Q C b + u) = Gauss Q C (FEMC Q C b) + nrm2 (S *m u).
Proof.
move=> Au.
have BSu : B *m (S *m u) = 0 by rewrite mulmxA -A_BS.
rewrite !Gauss_S mulmxDr addrAC S_FEMC nrm2_pythagoras //.
by rewrite trmx_mul -mulmxA (E3b_null_pinv_tr HB BSu) mulmx0.
Qed.

(* E2 in the form of Gauss's principle: among all z with A z = b,           *)
(* G(z) = G(q'') + ||M^{1/2}(z - q'')||^2, so q'' is the unique global      *)
(* minimiser (004 (9)-(13); U5 for C <> 0).                                 *)
Theorem E2_U5_gauss_principle (Q C : 'cV[R]_n) (b : 'cV[R]_m) :
  (exists x : 'cV[R]_n, A *m x = b) ->
  A *m FEMC Q C b = b /\
  forall z : 'cV[R]_n, A *m z = b ->
    Gauss Q C z = Gauss Q C (FEMC Q C b) + nrm2 (S *m (z - FEMC Q C b)) /\
    Gauss Q C (FEMC Q C b) 0 0 <= Gauss Q C z 0 0 /\
    (Gauss Q C z 0 0 = Gauss Q C (FEMC Q C b) 0 0 -> z = FEMC Q C b).
Proof.
move=> cons; have Aq := E1_constraint_satisfied Q C cons.
split=> // z Az.
have Au : A *m (z - FEMC Q C b) = 0 by rewrite mulmxBr Az Aq subrr.
have Ez := E2_global_min_decomposition Q C b Au.
rewrite addrC subrK in Ez.
split=> //; rewrite Ez.
have -> : (Gauss Q C (FEMC Q C b) + nrm2 (S *m (z - FEMC Q C b))) 0 0
          = Gauss Q C (FEMC Q C b) 0 0 + sqn (S *m (z - FEMC Q C b)).
  by rewrite [LHS]mxE.
split; first by rewrite ler_addl sqn_ge0.
move=> H.
have /sqn_eq0 : sqn (S *m (z - FEMC Q C b)) = 0.
  by apply: (addrI (Gauss Q C (FEMC Q C b) 0 0)); rewrite addr0.
move/(congr1 (mulmx (invmx S))); rewrite mulmx0 mulKmx //.
by move/eqP; rewrite subr_eq0 => /eqP.
Qed.

(* ---- U2: virtual work ---- *)

(* 002 (10), (13); 000 (9), (12): for every virtual displacement v (A v = 0) *)
(* v^T Q^c = v^T C with Q^c = Q^N + Q^W, and the ideal part does no work.   *)
Theorem U2_virtual_work (e : 'cV[R]_m) (C v : 'cV[R]_n) :
  A *m v = 0 ->
  v^T *m (QN e + QW C) = v^T *m C /\ v^T *m QN e = 0.
Proof.
move=> Av.
have BSv : B *m (S *m v) = 0 by rewrite mulmxA -A_BS.
have hN : (S *m v)^T *m Bp = 0 by exact: (E3b_null_pinv HB BSv).
have vN : v^T *m QN e = 0.
  by rewrite /QN !mulmxA -trmx_mul hN mul0mx.
split=> //; rewrite mulmxDr vN add0r /QW !mulmxA -trmx_mul.
rewrite mulmxBr mulmx1 mulmxA hN mul0mx subr0 trmx_mul.
by rewrite cS3.
Qed.

(* ---- U3: Q^N and Q^W are M^{-1}-orthogonal ---- *)

(* 000 (31) and text after it; 002 (32)-(34): (Q^N)^T M^-1 Q^W = 0. *)
Theorem U3_orthogonal (e : 'cV[R]_m) (C : 'cV[R]_n) :
  (QN e)^T *m invmx (S^T *m S) *m QW C = 0.
Proof.
rewrite /QN /QW invM !trmx_mul trmxK !mulmxA.
rewrite -[e^T *m Bp^T *m S *m invmx S]mulmxA mulmxV // mulmx1.
rewrite cS4 -[e^T *m Bp^T *m _]mulmxA (pinv_trXp_compl HB) mulmx0.
by rewrite !mul0mx.
Qed.

(* ---- U4: the two extreme cases of Q^W ---- *)

(* 002, end of Section 4: if M^{-1/2} C in Null(B) then Q^W = C; if        *)
(* M^{-1/2} C in Range(B^T) then Q^W = 0.                                   *)
Theorem U4_QW_cases (C : 'cV[R]_n) :
  (B *m ((invmx S)^T *m C) = 0 -> QW C = C) /\
  (forall w : 'cV[R]_m, (invmx S)^T *m C = B^T *m w -> QW C = 0).
Proof.
split=> [HC | w HC]; rewrite /QW -!mulmxA.
  rewrite mulmxBl mul1mx mulmxBr -[Bp *m B *m _]mulmxA HC !mulmx0 subr0.
  by rewrite mulmxA StSiT mul1mx.
rewrite HC mulmxBl mul1mx [Bp *m B *m _]mulmxA (pinv_proj_trX HB) subrr.
by rewrite mulmx0.
Qed.

(* ---- E5: existence of Lagrange multipliers ---- *)

(* 004 (19)-(21): A^T lambda = M^{1/2} B^+ e is consistent; a witness is     *)
(* lambda = (B^+)^T B^+ e, since A^T (B^+)^T B^+ = S^T (B^+ B)^T B^+ = S^T B^+. *)
Theorem E5_lagrange_witness (e : 'cV[R]_m) :
  A^T *m (Bp^T *m Bp *m e) = QN e.
Proof.
rewrite /QN A_BS trmx_mul -!mulmxA; congr (_ *m _).
by rewrite !mulmxA -trmx_mul (pinv4 HB) (pinv2 HB).
Qed.

(* 004 (18): there is lambda with M q'' = Q + A^T lambda (here C = 0).      *)
Theorem E5_lagrange_exists (Q : 'cV[R]_n) (b : 'cV[R]_m) :
  exists lambda : 'cV[R]_m,
    (S^T *m S) *m FEMC Q 0 b = Q + A^T *m lambda.
Proof.
exists (Bp^T *m Bp *m (b - A *m acc_free Q)).
rewrite U1_equation E5_lagrange_witness /QW mulmx0 addr0 //.
Qed.

(* 004 (22): with (A^T)^+ any Moore--Penrose inverse of A^T, the            *)
(* multipliers are exactly lambda = (A^T)^+ M^{1/2} B^+ e + (I - (A^T)^+ A^T) h. *)
Theorem E5_lagrange_general (ATp : 'M[R]_(m, n)) (e : 'cV[R]_m) :
  is_pinv A^T ATp ->
  forall lambda : 'cV[R]_m,
    A^T *m lambda = QN e <->
    exists h : 'cV[R]_m, lambda = ATp *m QN e + (1%:M - ATp *m A^T) *m h.
Proof.
move=> HAT lambda; apply: (E3d_general_solution HAT).
by exists (Bp^T *m Bp *m e); exact: E5_lagrange_witness.
Qed.

(* 004 (23): if (A^T)^+ A^T = I (rank A = m) the multiplier is unique,      *)
(* lambda = (A^T)^+ M^{1/2} B^+ e.                                          *)
Theorem E5_lagrange_unique (ATp : 'M[R]_(m, n)) (e : 'cV[R]_m)
    (lambda : 'cV[R]_m) :
  is_pinv A^T ATp -> ATp *m A^T = 1%:M ->
  A^T *m lambda = QN e -> lambda = ATp *m QN e.
Proof.
move=> HAT full /(E5_lagrange_general e HAT) [h ->].
by rewrite full subrr mul0mx addr0.
Qed.

(* ------------------------------------------------------------------------- *)
(* The General Gauss Principle (paper 001): weighted least-squares            *)
(* constraints, possibly inconsistent.                                        *)
(* ------------------------------------------------------------------------- *)

(* G_g(z) as a scalar (001 (10)). *)
Definition Gg (Q C z : 'cV[R]_n) : R := Gauss Q C z 0 0.

(* Unweighted residual ||A z - b||^2 and the set Z_g of its minimisers      *)
(* (001 (12)).                                                               *)
Definition res (b : 'cV[R]_m) (z : 'cV[R]_n) : R :=
  ((A *m z - b)^T *m (A *m z - b)) 0 0.
Definition Zg (b : 'cV[R]_m) (z : 'cV[R]_n) : Prop :=
  forall z' : 'cV[R]_n, res b z <= res b z'.

Section Weighted.

Variables (Wh : 'M[R]_m)          (* W = Wh^T Wh ; Wh stands for W^{1/2} *)
          (P : 'M[R]_(m, n))      (* P = W^{1/2} B                      *)
          (Pp : 'M[R]_(n, m)).    (* P^+                                *)
Hypotheses (uW : Wh \in unitmx) (EP : P = Wh *m B) (HP : is_pinv P Pp).

(* ||A z - b||_W^2 = (A z - b)^T W (A z - b), and Z_W (001 (16)). *)
Definition resW (b : 'cV[R]_m) (z : 'cV[R]_n) : R :=
  ((A *m z - b)^T *m (Wh^T *m Wh) *m (A *m z - b)) 0 0.
Definition ZW (b : 'cV[R]_m) (z : 'cV[R]_n) : Prop :=
  forall z' : 'cV[R]_n, resW b z <= resW b z'.

(* 001 (28)-(29): q'' = M^{-1/2} z_s*,  z_s* = P^+ b~ + (I - P^+P) M^{-1/2}(Q + C). *)
Definition qddW (Q C : 'cV[R]_n) (b : 'cV[R]_m) : 'cV[R]_n :=
  invmx S *m zs_star P Pp (Wh *m b) ((invmx S)^T *m (Q + C)).

Lemma PS : P *m S = Wh *m A.
Proof. by rewrite EP -mulmxA -A_BS. Qed.

(* 001 (18): ||A z - b||_W^2 = ||P z_s - b~||^2 with z_s = M^{1/2} z. *)
Lemma resW_S (b : 'cV[R]_m) (z : 'cV[R]_n) :
  resW b z = sqn (P *m (S *m z) - Wh *m b).
Proof.
have -> : P *m (S *m z) - Wh *m b = Wh *m (A *m z - b).
  by rewrite mulmxA PS mulmxBr mulmxA.
by rewrite /resW /sqn trmx_mul !mulmxA.
Qed.

Lemma trP_compl : P^T *m (P *m Pp - 1%:M) = 0.
Proof. by rewrite mulmxBr mulmx1 (pinv_trX_proj HP) subrr. Qed.

(* 001 (24), Remark 4: ||A z - b||_W^2 = ||P(z_s - P^+ b~)||^2 + ||delta||^2, *)
(* delta = (P P^+ - I) b~.                                                  *)
Theorem G3_residual (b : 'cV[R]_m) (z : 'cV[R]_n) :
  resW b z = sqn (P *m (S *m z - Pp *m (Wh *m b)))
             + sqn ((P *m Pp - 1%:M) *m (Wh *m b)).
Proof.
rewrite resW_S -sqn_pythagoras; last first.
  by rewrite trmx_mul -mulmxA [P^T *m _]mulmxA trP_compl mul0mx mulmx0.
congr sqn; mxnorm; mxring R.
Qed.

Lemma ZW_P0 (b : 'cV[R]_m) (z : 'cV[R]_n) :
  ZW b z <-> P *m (S *m z - Pp *m (Wh *m b)) = 0.
Proof.
split=> [Hz | H0 z'].
  have := Hz (invmx S *m (Pp *m (Wh *m b))).
  rewrite !G3_residual mulKVmx // subrr mulmx0.
  rewrite sqn0 add0r ger_addr => Hle.
  by apply: sqn_eq0; apply: Order.POrderTheory.le_anti; rewrite Hle sqn_ge0.
rewrite !G3_residual H0.
by rewrite sqn0 add0r ler_addr sqn_ge0.
Qed.

(* 001 (21)-(23): Z_W = { M^{-1/2} [P^+ b~ + (I - P^+P) h] : h arbitrary }. *)
Theorem G3_ZW (b : 'cV[R]_m) (z : 'cV[R]_n) :
  ZW b z <->
  exists h : 'cV[R]_n,
    z = invmx S *m (Pp *m (Wh *m b) + (1%:M - Pp *m P) *m h).
Proof.
rewrite ZW_P0; split=> [H0 | [h ->]].
  exists (S *m z).
  have E : P *m (S *m z) = P *m (Pp *m (Wh *m b)).
    by apply/eqP; rewrite -subr_eq0 -mulmxBr H0.
  rewrite mulmxBl mul1mx -[Pp *m P *m _]mulmxA E.
  rewrite [Pp *m (P *m _)]mulmxA [Pp *m P *m _]mulmxA (pinv2 HP).
  by rewrite addrC subrK mulKmx.
by rewrite mulKVmx // addrAC subrr add0r mulmxA (pinv_mul_compl HP) mul0mx.
Qed.

(* 001 (24), Remarks 4-5: every member of Z_W attains ||delta||^2. *)
Theorem G3_min_value (b : 'cV[R]_m) (z : 'cV[R]_n) :
  ZW b z -> resW b z = sqn ((P *m Pp - 1%:M) *m (Wh *m b)).
Proof.
move=> /ZW_P0 H0; rewrite G3_residual H0.
by rewrite sqn0 add0r.
Qed.

(* 001 Remark 5: the constraints are consistent iff delta = 0. *)
Theorem G3_consistency (b : 'cV[R]_m) :
  (exists x : 'cV[R]_n, A *m x = b) <-> (P *m Pp - 1%:M) *m (Wh *m b) = 0.
Proof.
have E : (P *m Pp - 1%:M) *m (Wh *m b) = 0 <->
          P *m Pp *m (Wh *m b) = Wh *m b.
  rewrite mulmxBl mul1mx; split=> [/eqP | ->]; last by rewrite subrr.
  by rewrite subr_eq0 => /eqP.
rewrite E; split=> [[x Ax] | H].
  apply/(E3a_consistency HP); exists (S *m x).
  by rewrite mulmxA PS -mulmxA Ax.
exists (invmx S *m (Pp *m (Wh *m b))).
apply: (can_inj (mulKmx uW)).
by rewrite [Wh *m (A *m _)]mulmxA -PS -[P *m S *m _]mulmxA mulKVmx // mulmxA H.
Qed.

(* 001 Remarks 2, 3, 7: Z_W is a single point iff P^+ P = I. *)
Theorem G4_singleton (b : 'cV[R]_m) :
  (forall z1 z2 : 'cV[R]_n, ZW b z1 -> ZW b z2 -> z1 = z2) <->
  Pp *m P = 1%:M.
Proof.
split=> [Huniq | H1 z1 z2].
  apply/esym/eqP; rewrite -subr_eq0; apply/eqP/mx_eq0_cols => h.
  have Z0 : ZW b (invmx S *m (Pp *m (Wh *m b) + (1%:M - Pp *m P) *m 0)).
    by apply/G3_ZW; exists 0.
  have Zh : ZW b (invmx S *m (Pp *m (Wh *m b) + (1%:M - Pp *m P) *m h)).
    by apply/G3_ZW; exists h.
  have := Huniq _ _ Zh Z0.
  move/(congr1 (mulmx S)); rewrite !mulKVmx // mulmx0 addr0.
  by move/(congr1 (fun v => v - Pp *m (Wh *m b))); rewrite addrC addKr subrr.
move=> /G3_ZW [h1 ->] /G3_ZW [h2 ->].
by rewrite H1 subrr !mul0mx.
Qed.

(* 001 (48)-(51), G11: the difference of two least-squares solutions lies  *)
(* in Null(A) -- the expanded virtual displacement.                        *)
Theorem G11_virtual_displacement (b : 'cV[R]_m) (z1 z2 : 'cV[R]_n) :
  ZW b z1 -> ZW b z2 -> A *m (z1 - z2) = 0.
Proof.
move=> /ZW_P0 H1 /ZW_P0 H2.
have : Wh *m (A *m (z1 - z2)) = 0.
  have -> : Wh *m (A *m (z1 - z2))
            = P *m (S *m z1 - Pp *m (Wh *m b))
              - P *m (S *m z2 - Pp *m (Wh *m b)).
    rewrite !mulmxA -PS; mxnorm; mxring R.
  by rewrite H1 H2 subrr.
by move/(congr1 (mulmx (invmx Wh))); rewrite mulKmx // mulmx0.
Qed.

(* 001 (31)-(33) in the z coordinates:                                      *)
(*   G_g(q'' + M^{-1/2}(I - P^+P) Delta) = G_g(q'') + ||(I - P^+P) Delta||^2. *)
Theorem G5_global_min_z (Q C : 'cV[R]_n) (b : 'cV[R]_m) (Delta : 'cV[R]_n) :
  Gauss Q C (qddW Q C b + invmx S *m ((1%:M - Pp *m P) *m Delta))
  = Gauss Q C (qddW Q C b) + nrm2 ((1%:M - Pp *m P) *m Delta).
Proof.
rewrite !Gauss_S /qddW mulmxDr !mulKVmx //.
exact: G5_E2_global_min_s.
Qed.

(* 001 (30): G_g^min = ||P^+ [b~ - P M^{-1/2}(Q + C)]||^2. *)
Theorem G5_min_value (Q C : 'cV[R]_n) (b : 'cV[R]_m) :
  Gauss Q C (qddW Q C b)
  = nrm2 (Pp *m (Wh *m b - P *m ((invmx S)^T *m (Q + C)))).
Proof. by rewrite Gauss_S /qddW mulKVmx // G5_eq30. Qed.

(* 001 (15), (29), (40): the explicit form of Result 1,                     *)
(* q'' = a + M^{-1/2}P^+(b~ - P M^{-1/2} Q) + M^{-1/2}(I - P^+P)M^{-1/2} C.     *)
Theorem G2_formula (Q C : 'cV[R]_n) (b : 'cV[R]_m) :
  qddW Q C b
  = acc_free Q + invmx S *m Pp *m (Wh *m b - P *m ((invmx S)^T *m Q))
    + invmx S *m (1%:M - Pp *m P) *m (invmx S)^T *m C.
Proof. rewrite /qddW /zs_star /acc_free invM; mxnorm; mxring R. Qed.

(* 001 Result 1 (and G1 for W = I below): q'' lies in Z_W and is the unique *)
(* global minimiser of G_g over Z_W.                                        *)
Theorem G2_result1 (Q C : 'cV[R]_n) (b : 'cV[R]_m) :
  ZW b (qddW Q C b) /\
  forall z : 'cV[R]_n, ZW b z ->
    Gg Q C (qddW Q C b) <= Gg Q C z /\
    (Gg Q C z = Gg Q C (qddW Q C b) -> z = qddW Q C b).
Proof.
split=> [|z /G3_ZW [h Ez]].
  by apply/G3_ZW; exists ((invmx S)^T *m (Q + C)).
pose D := h - (invmx S)^T *m (Q + C).
have Ez' : z = qddW Q C b + invmx S *m ((1%:M - Pp *m P) *m D).
  rewrite Ez /qddW /zs_star /D; mxnorm; mxring R.
have EG : Gg Q C z = Gg Q C (qddW Q C b) + sqn ((1%:M - Pp *m P) *m D).
  by rewrite /Gg Ez' G5_global_min_z [LHS]mxE.
rewrite EG; split; first by rewrite ler_addl sqn_ge0.
move=> H.
have /sqn_eq0 HD : sqn ((1%:M - Pp *m P) *m D) = 0.
  by apply: (addrI (Gg Q C (qddW Q C b))); rewrite addr0.
by rewrite Ez' HD mulmx0 addr0.
Qed.

(* 001 Proof 2, (34)-(37): with s = M^{1/2} z - M^{-1/2}(Q + C) and         *)
(* p = W^{1/2}[b - A M^{-1}(Q + C)],  P s - p = W^{1/2}(A z - b).          *)
Theorem G6_eq37 (Q C z : 'cV[R]_n) (b : 'cV[R]_m) :
  P *m (S *m z - (invmx S)^T *m (Q + C))
  - Wh *m (b - A *m (invmx (S^T *m S) *m (Q + C)))
  = Wh *m (A *m z - b).
Proof.
rewrite invM A_BS EP; mxnorm; Scancel; mxnorm; mxring R.
Qed.

(* 001 (38)-(39): q'' corresponds to s* = P^+ p. *)
Theorem G6_eq39 (Q C : 'cV[R]_n) (b : 'cV[R]_m) :
  S *m qddW Q C b - (invmx S)^T *m (Q + C)
  = Pp *m (Wh *m (b - A *m (invmx (S^T *m S) *m (Q + C)))).
Proof.
rewrite /qddW mulKVmx // G5_eq30; congr (Pp *m _).
rewrite invM A_BS EP; mxnorm; Scancel; mxnorm; mxring R.
Qed.

(* 001 (44): Lemma 1 applied to P = W^{1/2} B. *)
Theorem G7_weighted : Pp *m P = Bp *m B.
Proof. exact: (G7_lemma1 uW EP HB HP). Qed.

(* If P^+ W^{1/2} b = B^+ b then Result 1 reduces to the FEMC (U1). *)
Lemma qddW_FEMC (Q C : 'cV[R]_n) (b : 'cV[R]_m) :
  Pp *m (Wh *m b) = Bp *m b -> qddW Q C b = FEMC Q C b.
Proof.
move=> Hb; rewrite /qddW /zs_star G7_weighted Hb /FEMC /acc_free invM A_BS.
mxnorm; Scancel; mxnorm; mxring R.
Qed.

(* 001 (45): for B of full row rank (B B^+ = I),                           *)
(* P^+ = (W^{1/2} B)^+ = B^+ W^{-1/2}.                                      *)
Theorem G9_pinv_eq45 : B *m Bp = 1%:M -> Pp = Bp *m invmx Wh.
Proof.
move=> full.
have PX : P *m (Bp *m invmx Wh) = 1%:M.
  by rewrite EP -mulmxA [B *m _]mulmxA full mul1mx mulmxV.
have XP : Bp *m invmx Wh *m P = Bp *m B.
  by rewrite EP mulmxA mulmxKV.
apply: (pinv_unique HP); split.
- by rewrite PX mul1mx.
- by rewrite XP mulmxA (pinv2 HB).
- by rewrite PX trmx1.
- by rewrite XP (pinv4 HB).
Qed.

(* G9 in the form P^+ (W^{1/2} b) - P^+ P y = B^+ b - B^+ B y             *)
(* (001 (44)-(46)): for B of full row rank the weight drops out.           *)
Theorem G9_W_independent (b : 'cV[R]_m) (y : 'cV[R]_n) :
  B *m Bp = 1%:M ->
  Pp *m (Wh *m b) - Pp *m P *m y = Bp *m b - Bp *m B *m y.
Proof.
move=> full; rewrite G7_weighted (G9_pinv_eq45 full).
by rewrite -mulmxA [invmx Wh *m _]mulmxA mulVmx // mul1mx.
Qed.

(* Beyond the paper (CLAIMS.md, note under G9): if the constraints are     *)
(* consistent (B B^+ b = b) then q'' does not depend on W, whatever the     *)
(* rank of A.                                                               *)
Theorem G9_consistent_W_independent (Q C : 'cV[R]_n) (b : 'cV[R]_m) :
  B *m Bp *m b = b -> qddW Q C b = FEMC Q C b.
Proof.
move=> Hb; apply: qddW_FEMC.
rewrite -{1}Hb -!mulmxA [Wh *m (B *m _)]mulmxA -EP [Pp *m (P *m _)]mulmxA.
by rewrite G7_weighted mulmxA (pinv2 HB).
Qed.

(* 001 Result 2, (47): for A (equivalently B) of full row rank, q'' is the  *)
(* FEMC (U1) for every W > 0.                                               *)
Theorem G9_result2 (Q C : 'cV[R]_n) (b : 'cV[R]_m) :
  B *m Bp = 1%:M -> qddW Q C b = FEMC Q C b.
Proof.
by move=> full; apply: G9_consistent_W_independent; rewrite full mul1mx.
Qed.

(* 001 Remark 1 (G12): W = I recovers the FEMC (14) from Result 1 (15).     *)
Theorem G12_W_identity (Q C : 'cV[R]_n) (b : 'cV[R]_m) :
  Wh = 1%:M -> qddW Q C b = FEMC Q C b.
Proof.
move=> W1; apply: qddW_FEMC.
have EPB : P = B by rewrite EP W1 mul1mx.
have HPB : is_pinv B Pp by rewrite -EPB.
by rewrite W1 mul1mx (pinv_unique HPB HB).
Qed.

End Weighted.

(* G9 for two weights (001 Result 2, Second Form): for B of full row rank, *)
(* two weights W1, W2 > 0 give the same P^+ b~ - P^+ P y and the same q''.  *)
Theorem G9_two_weights (W1 W2 : 'M[R]_m) (P1 P2 : 'M[R]_(m, n))
    (P1p P2p : 'M[R]_(n, m)) :
  W1 \in unitmx -> W2 \in unitmx ->
  P1 = W1 *m B -> P2 = W2 *m B ->
  is_pinv P1 P1p -> is_pinv P2 P2p ->
  B *m Bp = 1%:M ->
  forall (Q C : 'cV[R]_n) (b : 'cV[R]_m),
    (forall y : 'cV[R]_n,
       P1p *m (W1 *m b) - P1p *m P1 *m y = P2p *m (W2 *m b) - P2p *m P2 *m y)
    /\ qddW W1 P1 P1p Q C b = qddW W2 P2 P2p Q C b.
Proof.
move=> uW1 uW2 EP1 EP2 HP1 HP2 full Q C b; split=> [y|].
  by rewrite (G9_W_independent uW1 EP1 HP1 b y full)
             (G9_W_independent uW2 EP2 HP2 b y full).
by rewrite (G9_result2 uW1 EP1 HP1 Q C b full) (G9_result2 uW2 EP2 HP2 Q C b full).
Qed.

Lemma res_resW (b : 'cV[R]_m) (z : 'cV[R]_n) : res b z = resW 1%:M b z.
Proof. by rewrite /res /resW trmx1 mulmx1 mulmx1. Qed.

(* 001 (9)-(14), First Form of the General Gauss Principle (G1): over      *)
(* Z_g = {z : ||A z - b||^2 minimal} -- constraints possibly inconsistent --   *)
(* the FEMC q'' (001 (14)) lies in Z_g and is the unique global minimiser   *)
(* of G_g.                                                                   *)
Theorem G1_first_form (Q C : 'cV[R]_n) (b : 'cV[R]_m) :
  Zg b (FEMC Q C b) /\
  forall z : 'cV[R]_n, Zg b z ->
    Gg Q C (FEMC Q C b) <= Gg Q C z /\
    (Gg Q C z = Gg Q C (FEMC Q C b) -> z = FEMC Q C b).
Proof.
have EP1 : B = 1%:M *m B by rewrite mul1mx.
have [H1 H2] := G2_result1 EP1 HB Q C b.
rewrite (G12_W_identity (unitmx1 _ _) EP1 HB Q C b erefl) in H1 H2.
split=> [z' | z Hz]; first by rewrite !res_resW; exact: H1.
by apply: H2 => z'; rewrite -!res_resW; exact: Hz.
Qed.


End Mechanics.
