import os, time
from scorepad import create_app
from scorepad.config import TestConfig
from scorepad.extensions import db
class C(TestConfig):
    SQLALCHEMY_DATABASE_URI=os.environ.get("DBURL","sqlite:////tmp/h2m.sqlite3")
app=create_app(C)
with app.app_context():
    db.drop_all(); db.create_all()
c=app.test_client()
for n,s in ((18,2),(80,4),(200,6)):
    t=time.perf_counter()
    r=c.post("/api/v1/events",json={"preset":"tournament","sessions":s,"players":[f"P{i}" for i in range(n)]})
    t1=time.perf_counter()-t
    d=r.json
    t=time.perf_counter()
    for _ in range(3): g=c.get(f"/api/v1/events/{d['id']}",headers={"Authorization":"Bearer "+d["view_token"]})
    t2=(time.perf_counter()-t)/3
    print(n,s,r.status_code,f"create {t1*1000:.0f} ms, GET {t2*1000:.0f} ms, {len(g.data)} bytes")
