package org.idgen.hibernate;

import org.idgen.ObjectId;

/**
 * The Hibernate type of the BSON library's {@code org.bson.types.ObjectId} on an {@code objectid}
 * column: bound as the {@link ObjectId} of the same 12 bytes, read back from the text. Applied to
 * every attribute of that class by {@link IdgenTypeContributor} where {@code org.mongodb:bson} is on
 * the class path.
 */
public final class BsonObjectIdType extends IdgenUserType<org.bson.types.ObjectId>
{
	/** The type, as Hibernate instantiates it. */
	public BsonObjectIdType()
	{
		super(org.bson.types.ObjectId.class, ObjectId.TYPE, text -> ObjectId.parse(text).toBson(), ObjectId::of);
	}
}
