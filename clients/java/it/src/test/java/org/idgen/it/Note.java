package org.idgen.it;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.annotations.Generated;
import org.idgen.Ksuid;
import org.idgen.ObjectId;
import org.idgen.Xid;

/** notes: id objectid DEFAULT objectid(), ref ksuid DEFAULT ksuid(), trace rsxid, mongo_id objectid. */
// README java begins
@Entity
@Table(name = "notes")
public class Note
{
	@Id
	@GeneratedValue(strategy = GenerationType.IDENTITY)
	private ObjectId id;                        // objectid DEFAULT objectid()

	@Generated
	@Column(nullable = false)
	private Ksuid ref;                          // ksuid DEFAULT ksuid()

	private Xid trace;                          // rsxid

	@Column(name = "mongo_id")
	private org.bson.types.ObjectId mongoId;    // objectid, set from MongoDB's own ObjectId
// README java ends

	private String body;

	protected Note()
	{
	}

	public Note(Xid trace, org.bson.types.ObjectId mongoId, String body)
	{
		this.trace = trace;
		this.mongoId = mongoId;
		this.body = body;
	}

	public ObjectId getId()
	{
		return id;
	}

	public Ksuid getRef()
	{
		return ref;
	}

	public Xid getTrace()
	{
		return trace;
	}

	public org.bson.types.ObjectId getMongoId()
	{
		return mongoId;
	}

	public void setMongoId(org.bson.types.ObjectId mongoId)
	{
		this.mongoId = mongoId;
	}

	public String getBody()
	{
		return body;
	}

	public void setBody(String body)
	{
		this.body = body;
	}
}
