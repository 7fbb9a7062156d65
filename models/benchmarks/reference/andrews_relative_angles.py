#!/usr/bin/env python3
"""An independent check of A03 (models/benchmarks/README.md): the source's own
relative-angle equations (Hairer & Wanner sec. VII.7; IVP test set andrews),
index-1 form, classical RK4 in numpy with N and 2N steps and Richardson
extrapolation. Shares no code with femc. Usage: andrews_relative_angles.py N
(N = 10000: about 20 s), prints y(0.03)."""
import numpy as np, sys
m1,m2,m3,m4,m5,m6,m7 = .04325,.00365,.02373,.00706,.07050,.00706,.05498
xa,ya,xb,yb,xc,yc,c0 = -.06934,-.00227,-.03635,.03273,.014,.072,4530
i1,i2,i3,i4,i5,i6,i7 = 2.194e-6,4.410e-7,5.255e-6,5.667e-7,1.169e-5,5.667e-7,1.912e-5
d,da,e,ea,rr,ra,l0,ss = 28e-3,115e-4,2e-2,1421e-5,7e-3,92e-5,7785e-5,35e-3
sa,sb,sc,sd,ta,tb,u,ua,ub,zf,zt,fa,mom = 1874e-5,1043e-5,18e-3,2e-2,2308e-5,916e-5,4e-2,1228e-5,449e-5,2e-2,4e-2,1421e-5,33e-3
# g as terms (coef, 'c'|'s', a): coef*cos(a.q) or coef*sin(a.q)
E=lambda *v: np.array(v,float)
b_,th,ga,ph,de,om,ep = [E(*[1 if j==i else 0 for j in range(7)]) for i in range(7)]
common_x=[(rr,'c',b_),(-d,'c',b_+th)]; common_y=[(rr,'s',b_),(-d,'s',b_+th)]
g=[common_x+[(-ss,'s',ga)], common_y+[(ss,'c',ga)],
   common_x+[(-e,'s',ph+de),(-zt,'c',de)], common_y+[(e,'c',ph+de),(-zt,'s',de)],
   common_x+[(-zf,'c',om+ep),(-u,'s',ep)], common_y+[(-zf,'s',om+ep),(u,'c',ep)]]
def G(q):
    out=np.zeros((6,7))
    for k,terms in enumerate(g):
        for c,t,a in terms:
            out[k]+= (-c*np.sin(a@q) if t=='c' else c*np.cos(a@q))*a
    return out
def curv(q,qd):  # sum of c*trig''(a.q)*(a.qd)^2 part of g''
    out=np.zeros(6)
    for k,terms in enumerate(g):
        for c,t,a in terms:
            out[k]+= (-c*np.cos(a@q) if t=='c' else -c*np.sin(a@q))*(a@qd)**2
    return out
def acc(y):
    q,v=y[:7],y[7:]
    be,th_,ga_,ph_,de_,om_,ep_=q; bep,thp,gap,php,dep,omp,epp=v
    sith,coth=np.sin(th_),np.cos(th_); siga,coga=np.sin(ga_),np.cos(ga_)
    siph,coph=np.sin(ph_),np.cos(ph_); siom,coom=np.sin(om_),np.cos(om_)
    M=np.zeros((7,7))
    M[0,0]=m1*ra**2+m2*(rr**2-2*da*rr*coth+da**2)+i1+i2
    M[1,1]=m2*da**2+i2; M[2,2]=m3*(sa**2+sb**2)+i3; M[3,3]=m4*(e-ea)**2+i4
    M[4,4]=m4*(zt**2+2*zt*(e-ea)*siph+(e-ea)**2)+m5*(ta**2+tb**2)+i4+i5
    M[5,5]=m6*(zf-fa)**2+i6
    M[6,6]=m6*((zf-fa)**2-2*u*(zf-fa)*siom+u**2)+m7*(ua**2+ub**2)+i6+i7
    M[0,1]=M[1,0]=m2*(da**2-da*rr*coth)+i2
    M[3,4]=M[4,3]=m4*((e-ea)**2+zt*(e-ea)*siph)+i4
    M[5,6]=M[6,5]=m6*((zf-fa)**2-u*(zf-fa)*siom)+i6
    xd=sd*coga+sc*siga+xb; yd=sd*siga-sc*coga+yb
    L=np.hypot(xd-xc,yd-yc); F=-c0*(L-l0)/L; fx,fy=F*(xd-xc),F*(yd-yc)
    f=E(mom-m2*da*rr*thp*(thp+2*bep)*sith, m2*da*rr*bep**2*sith,
        fx*(sc*coga-sd*siga)+fy*(sd*coga+sc*siga), m4*zt*(e-ea)*dep**2*coph,
        -m4*zt*(e-ea)*php*(php+2*dep)*coph, -m6*u*(zf-fa)*epp**2*coom, m6*u*(zf-fa)*omp*(omp+2*epp)*coom)
    Gq=G(q)
    K=np.block([[M,Gq.T],[Gq,np.zeros((6,6))]])
    sol=np.linalg.solve(K,np.concatenate([f,-curv(q,v)]))
    return np.concatenate([v,sol[:7]])
y0=E(-0.0617138900142764496358948458001,0,0.455279819163070380255912382449,0.222668390165885884674473185609,
     0.487364979543842550225598953530,-0.222668390165885884674473185609,1.23054744454982119249735015568,0,0,0,0,0,0,0)
print("qdd(0):", acc(y0)[7:9])
def run(n):
    h=0.03/n; y=y0.copy()
    for _ in range(n):
        k1=acc(y);k2=acc(y+h/2*k1);k3=acc(y+h/2*k2);k4=acc(y+h*k3);y=y+h/6*(k1+2*k2+2*k3+k4)
    return y
n=int(sys.argv[1]); a=run(n); b=run(2*n)
rich=b+(b-a)/15
np.set_printoptions(precision=16)
for x,xb_ in zip(rich, b): print("%.16e  (RK4 step-halving difference %.1e)" % (x, abs(x-xb_)))
