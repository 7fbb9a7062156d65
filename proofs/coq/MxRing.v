(* ========================================================================= *)
(* femc -- a small tactic for linear matrix identities.                      *)
(*                                                                           *)
(* [mxring] proves an identity between matrices built from "atoms" (matrix   *)
(* products, treated as opaque) with +, - and 0, by comparing entries and    *)
(* calling Coq's [ring] on the scalar field.  MathComp's canonical-structure *)
(* paths for + and - differ between contexts, which confuses [ring]'s        *)
(* syntactic reification; the entries are therefore first rewritten to the  *)
(* fixed constants Radd / Ropp / Rzero below.  Nothing here is an axiom:     *)
(* [ring] builds a reflexive proof from [femc_ring_theory].                  *)
(* ========================================================================= *)

From mathcomp Require Import all_ssreflect all_algebra.
From Coq Require Import Ring.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Import GRing.Theory.
Local Open Scope ring_scope.

Section RingConstants.

Variable R : realFieldType.

Definition Radd (x y : R) : R := x + y.
Definition Ropp (x : R) : R := - x.
Definition Rmul (x y : R) : R := x * y.
Definition Rzero : R := 0.
Definition Rone : R := 1.

Definition Rent (p q : nat) (x : 'M[R]_(p, q)) (i : 'I_p) (j : 'I_q) : R :=
  x i j.

Lemma toRent (p q : nat) (x : 'M[R]_(p, q)) i j : x i j = Rent x i j.
Proof. by []. Qed.
Lemma toRadd (x y : R) : x + y = Radd x y. Proof. by []. Qed.
Lemma toRopp (x : R) : - x = Ropp x. Proof. by []. Qed.
Lemma toRzero : 0 = Rzero :> R. Proof. by []. Qed.

Lemma femc_ring_theory :
  @ring_theory R Rzero Rone Radd Rmul (fun x y => Radd x (Ropp y)) Ropp eq.
Proof.
rewrite /Radd /Ropp /Rmul /Rzero /Rone.
split; [exact: add0r | exact: addrC | exact: addrA | exact: mul1r
       | exact: mulrC | exact: mulrA | exact: mulrDl | by [] | exact: subrr].
Qed.

End RingConstants.

(* Normal form for matrix expressions: distribute, then left-associate.    *)
Ltac mxnorm :=
  rewrite ?(mulmxDr, mulmxDl, mulmxBr, mulmxBl, mulmxN, mulNmx,
            mulmx1, mul1mx, mulmx0, mul0mx, mulmxA).

(* Replace every maximal matrix product (and transpose) by a fresh opaque  *)
(* variable, so that equal atoms become syntactically equal.               *)
Ltac mxatoms :=
  repeat match goal with
  | |- context [?a *m ?b] => let x := fresh "x" in set x := (a *m b); clearbody x
  end;
  repeat match goal with
  | |- context [?a^T] => let x := fresh "x" in set x := (a^T); clearbody x
  end.

(* Close a linear identity whose products are already in normal form.      *)
(* Needs [Add Ring ... : (femc_ring_theory R)] for the scalar field R.     *)
Ltac mxring R :=
  mxatoms;
  apply/matrixP => ? ?; rewrite !mxE ?toRent ?toRadd ?toRopp ?toRzero;
  match goal with |- @eq _ ?l ?r => change (@eq (Num.RealField.sort R) l r) end;
  ring.
